package org.parl.cli;

import java.util.concurrent.Callable;
import org.parl.internal.net.HostPort;
import org.parl.node.BlockingGateway;
import org.parl.node.ClusterFiles;
import org.parl.node.NodeFailure;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code parl drain WORKER[:GPU]}: takes a worker, or one of its GPUs, out of service gently, as
 * Slurm's drain or Kubernetes' cordon do: nothing new is placed there, running actors finish.
 * {@link Undrain} puts it back.
 */
@Command(name = "drain", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = "Take a worker, or one of its GPUs (WORKER:GPU), out of service: nothing new is placed there, "
        + "running actors finish. 'parl undrain' puts it back.")
public class DrainCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "WORKER[:GPU]", description = "A worker id as 'parl status' shows it, "
      + "optionally with one of its GPU ids (w-1a2b3c4d:0).")
  String target;

  @Option(names = "--address", paramLabel = "HOST:PORT", description = "The master (default: the cluster on this host).")
  String address;

  @Mixin
  TokenOption tokenOption;

  /** Whether this command drains (true) or undrains. */
  boolean drained() {
    return true;
  }

  @Override
  public Integer call() {
    String worker = target;
    Integer gpu = null;
    int colon = target.lastIndexOf(':');
    if (colon >= 0) {
      worker = target.substring(0, colon);
      try {
        gpu = Integer.parseInt(target.substring(colon + 1));
      } catch (NumberFormatException e) {
        gpu = -1;
      }
      if (gpu < 0) {
        throw new ParameterException(spec.commandLine(), "the GPU after ':' must be a GPU id (0, 1, ...), not '"
            + target.substring(colon + 1) + "'");
      }
    }
    if (worker.isBlank()) {
      throw new ParameterException(spec.commandLine(), "name a worker: WORKER or WORKER:GPU, as 'parl status' shows it");
    }
    HostPort master = master();
    BlockingGateway.drain(master, tokenOption.find(), worker, gpu, drained());
    System.out.println((drained() ? "drained " : "undrained ") + worker + (gpu == null ? "" : " GPU " + gpu)
        + (drained() ? ": nothing new is placed there; running actors finish" : ": it takes new actors again"));
    return 0;
  }

  private HostPort master() {
    if (address != null) {
      try {
        return HostPort.parse(address);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--" + e.getMessage());
      }
    }
    var live = ClusterFiles.live();
    if (live.isEmpty()) {
      throw new NodeFailure("no parl cluster runs on this host: give the master with --address HOST:PORT");
    }
    if (live.size() > 1) {
      throw new ParameterException(spec.commandLine(), live.size() + " clusters run on this host: choose one with --address");
    }
    return HostPort.parse(live.get(0).getString("address"));
  }

  /** {@code parl undrain WORKER[:GPU]}. */
  @Command(name = "undrain", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
      description = "Put a drained worker, or one of its GPUs (WORKER:GPU), back in service. On a GPU it also lifts a "
          + "quarantine (a GPU taken out of service as faulty) at once, without waiting for it to stay healthy.")
  public static final class Undrain extends DrainCommand {
    @Override
    boolean drained() {
      return false;
    }
  }
}
