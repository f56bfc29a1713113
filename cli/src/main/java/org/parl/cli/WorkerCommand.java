package org.parl.cli;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.parl.cluster.ClusterInfo;
import org.parl.cluster.ClusterNode;
import org.parl.ha.MasterDirectory;
import org.parl.internal.net.HostPort;
import org.parl.internal.security.ClusterToken;
import org.parl.node.BlockingGateway;
import org.parl.node.LocalWorker;
import org.parl.node.Nodes;
import org.parl.slurm.SlurmEnvironment;
import org.parl.slurm.SlurmLends;
import org.parl.slurm.SlurmNodes;
import org.parl.tls.ClusterKeys;
import org.parl.worker.Fencing;
import org.parl.worker.WorkerSettings;
import org.parl.worker.WorkerVerticle;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code parl worker}: lends this host's CPUs or GPUs to a cluster. */
@Command(name = "worker", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = "Join a cluster and lend it this host's CPUs or GPUs.")
public final class WorkerCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--address", required = true, paramLabel = "HOST:PORT", description = "The master's address.")
  String address;

  @ArgGroup(exclusive = false)
  Lends lends = new Lends();

  /** What the worker lends; a CPU or GPU cluster refuses the other kind with one sentence (LocalWorker). */
  static final class Lends {
    @Option(names = "--cpus", paramLabel = "N", description = "CPUs to lend on a CPU or mixed cluster (default: all cores).")
    Integer cpus;

    @Option(names = "--gpus", split = ",", paramLabel = "ID",
        description = "GPU ids to lend on a GPU or mixed cluster (default: all detected).")
    List<Integer> gpus;
  }

  @Option(names = "--slurm", description = "Lend what Slurm bound to this node's step, never the whole node: on a CPU "
      + "cluster its CPUs (SLURM_CPUS_ON_NODE), on a GPU cluster its GPUs (SLURM_STEP_GPUS, checked against nvidia-smi); "
      + "--host defaults to the node's address in Slurm. Start one per node with 'srun --overlap --ntasks-per-node=1'; "
      + "the worker leaves when its step or the allocation ends.")
  boolean slurm;

  @Option(names = "--fence-after", paramLabel = "SECONDS", defaultValue = "10",
      description = "How long the worker keeps its jobs after losing a master it cannot reach (a partition, a frozen "
          + "master); then it stops them and exits (default: ${DEFAULT-VALUE}).")
  int fenceAfter;

  @Mixin
  HostOption host;

  @Mixin
  HazelcastConfigOption hazelcastConfig;

  @Mixin
  GpuOptions gpuOptions;

  @Mixin
  TokenOption tokenOption;

  @Mixin
  DetachOption detach;

  @Mixin LimitOptions limits;

  @Override
  public Integer call() {
    HostPort master;
    try {
      master = HostPort.parse(address);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--" + e.getMessage());
    }
    if (lends.cpus != null && lends.cpus < 1) {
      throw new ParameterException(spec.commandLine(), "--cpus must be at least 1, not " + lends.cpus);
    }
    if (fenceAfter < 1) {
      throw new ParameterException(spec.commandLine(), "--fence-after must be at least 1 second, not " + fenceAfter);
    }
    List<Integer> gpus = GpuOptions.validIds(spec, lends.gpus);
    gpuOptions.policy(); // a wrong value is reported here, before detaching
    SlurmEnvironment slurmEnv = null;
    if (slurm) {
      if (lends.cpus != null || gpus != null) {
        throw new ParameterException(spec.commandLine(), "--slurm lends what Slurm bound to this node: drop --cpus and --gpus");
      }
      if (detach.detach) {
        throw new ParameterException(spec.commandLine(), "--slurm does not go with --detach: the worker lives in its "
            + "Slurm step, which ends it with the allocation");
      }
      slurmEnv = SlurmEnvironment.current().requireAllocation("parl worker --slurm");
    }
    String bindHost = slurmEnv != null && !host.given() ? SlurmNodes.of(slurmEnv.nodeName()).get(0).address()
        : host.reachableFrom(master);
    // before detaching, so that a missing or refused token is reported here
    ClusterToken token = tokenOption.find();
    if (detach.detach) {
      return Detacher.detach("worker", spec.root().commandLine().getParseResult().originalArgs());
    }
    ClusterInfo info = BlockingGateway.joinAsWorker(master, token);
    WorkerSettings settings = (slurmEnv != null ? SlurmLends.resolve(info.type(), slurmEnv, gpuOptions.inventory(), bindHost)
        : LocalWorker.resolve(info.type(), lends.cpus, gpus, gpuOptions.inventory(), bindHost)).with(gpuOptions.policy());
    ClusterNode node = Nodes.start(
        Nodes.settings(hazelcastConfig.file, info.clusterName(), bindHost, info.hazelcast(), "worker", false), bindHost,
        ClusterKeys.derive(token));
    Foreground foreground = new Foreground(node, "parl worker " + settings.workerId(), () -> {});
    // the worker itself follows the masters' changes, and fences itself when none is left
    MasterDirectory masters = MasterWatch.follow(node, token, info, who -> { });
    WorkerVerticle worker = new WorkerVerticle(node, settings, masters::current, new Fencing(Duration.ofSeconds(fenceAfter),
        why -> {
          System.err.println("parl: " + why);
          foreground.stop(1);
        }));
    Nodes.deploy(node.vertx(), worker);
    System.out.println("parl worker " + settings.workerId() + " ready: joined the " + info.type().name()
        + " cluster at " + master + " lending " + Nodes.describe(settings));
    return foreground.await();
  }
}
