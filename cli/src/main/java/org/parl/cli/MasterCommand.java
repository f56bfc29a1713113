package org.parl.cli;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.parl.cluster.ClusterInfo;
import org.parl.control.ClusterType;
import org.parl.internal.net.HostPort;
import org.parl.internal.security.ClusterToken;
import org.parl.monitor.MonitorCertificate;
import org.parl.node.BlockingGateway;
import org.parl.node.LocalWorker;
import org.parl.node.MasterNode;
import org.parl.worker.WorkerSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code parl master}: the gateway, a local worker, the monitor and, on the active master, the
 * JobCenter; {@code --standby --address} joins a running cluster as a standby master (docs/contract.md §10).
 */
@Command(name = "master", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = "Start a cluster's master, with a local worker and the web monitor; or, with --standby, a standby "
        + "master of a running cluster that takes over when the active master dies.")
public final class MasterCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--port", defaultValue = "8010", paramLabel = "PORT",
      description = "Port workers and clients connect to; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int port;

  @Mixin
  HostOption host;

  @Option(names = "--gpu-cluster", description = "Lend GPUs instead of CPUs.")
  boolean gpuCluster;

  @Option(names = "--mixed", description = "A mixed cluster: workers lend CPUs and, where they have them, GPUs; "
      + "CPU and GPU actors side by side.")
  boolean mixed;

  @Option(names = "--cpus", paramLabel = "N", description = "CPUs the local worker lends (default: all cores).")
  Integer cpus;

  @Option(names = "--gpus", split = ",", paramLabel = "ID",
      description = "GPU ids the local worker lends on a GPU or mixed cluster (default: all detected).")
  List<Integer> gpus;

  @Option(names = "--monitor-port", paramLabel = "PORT",
      description = "Port of the web monitor (default: port+100, or a free port).")
  Integer monitorPort;

  @Option(names = "--standby", description = "Join the running cluster at --address as a standby master.")
  boolean standby;

  @Option(names = "--address", paramLabel = "HOST:PORT",
      description = "With --standby: any master of the cluster to join.")
  String address;

  @Option(names = "--no-local-worker", description = "Start no worker in the master's process.")
  boolean noLocalWorker;

  @Option(names = "--max-gpus-per-actor", defaultValue = "8", paramLabel = "N",
      description = "Most GPUs one actor may ask for (default: ${DEFAULT-VALUE}).")
  int maxGpusPerActor;

  @Option(names = "--encrypt-data", description = "Encrypt calls between clients and actors (TLS), at a cost the benchmark reports.")
  boolean encryptData;

  @Option(names = "--allow-preemption", description = "Let creates that ask for it preempt actors of lower priority "
      + "(ActorBuilder.preempt).")
  boolean allowPreemption;

  @Mixin
  HazelcastConfigOption hazelcastConfig;

  private boolean maxGpusPerActorSet() {
    return spec.commandLine().getParseResult().hasMatchedOption("--max-gpus-per-actor");
  }

  @Mixin
  GpuOptions gpuOptions;

  @Mixin
  TokenOption tokenOption;

  @Mixin
  DetachOption detach;

  @Mixin LimitOptions limits;

  @Mixin
  MonitorTlsOptions monitorTls;

  @Override
  public Integer call() {
    String bindHost = host.get();
    HostPort join = validate();
    gpuOptions.policy(); // a wrong value is reported here, before detaching
    // before detaching, so that a new token file or a refused one is reported here
    ClusterToken token = standby ? tokenOption.find() : tokenOption.findOrCreate();
    MonitorCertificate monitorCertificate = monitorTls.read();
    if (detach.detach) {
      return Detacher.detach("master", spec.root().commandLine().getParseResult().originalArgs());
    }
    ClusterInfo joined = standby ? BlockingGateway.joinAsMaster(join, token) : null;
    ClusterType type = joined != null ? joined.type() : gpuCluster ? ClusterType.GPU : mixed ? ClusterType.MIXED : ClusterType.CPU;
    WorkerSettings local = noLocalWorker ? null
        : LocalWorker.resolve(type, cpus, GpuOptions.validIds(spec, gpus), gpuOptions.inventory(), bindHost)
            .with(gpuOptions.policy());
    MasterNode.Spec what = joined != null
        ? MasterNode.Spec.standby(bindHost, port, monitorPort, local, hazelcastConfig.file, joined)
        : new MasterNode.Spec(bindHost, port, monitorPort, type, local, maxGpusPerActor, hazelcastConfig.file, encryptData);
    what = what.withMonitorCertificate(monitorCertificate);
    if (joined == null) {
      what = what.withAllowPreemption(allowPreemption);
    }
    AtomicReference<Foreground> running = new AtomicReference<>();
    MasterNode master = MasterNode.start(what, token, why -> {
      System.err.println("parl: " + why);
      Foreground f = running.get();
      if (f != null) {
        f.stop(1);
      }
    });
    Foreground foreground = new Foreground(master.node, "parl master " + master.info.address(), master::handOver);
    running.set(foreground);
    // one line, which --detach repeats: the monitor's certificate is in the monitor's log line above it
    System.out.println(master.readyLine() + "; monitor: " + master.monitorLoginLink() + " (one-time login link)");
    return foreground.await();
  }

  /** Checks the options; returns the master a standby joins through, or null. */
  private HostPort validate() {
    HostPort join = null;
    if (standby) {
      if (address == null) {
        throw new ParameterException(spec.commandLine(), "--standby needs --address HOST:PORT of a running master");
      }
      try {
        join = HostPort.parse(address);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--" + e.getMessage());
      }
      if (gpuCluster || mixed || encryptData || allowPreemption || maxGpusPerActorSet()) {
        throw new ParameterException(spec.commandLine(), "a standby takes --gpu-cluster, --mixed, --encrypt-data, "
            + "--allow-preemption and --max-gpus-per-actor from the cluster it joins: drop them");
      }
    } else if (address != null) {
      throw new ParameterException(spec.commandLine(), "--address is for --standby: a master without it starts a new cluster");
    }
    if (port < 0 || port > 65535) {
      throw new ParameterException(spec.commandLine(), "--port must be between 0 and 65535, not " + port);
    }
    if (monitorPort != null && (monitorPort < 0 || monitorPort > 65535)) {
      throw new ParameterException(spec.commandLine(), "--monitor-port must be between 0 and 65535, not " + monitorPort);
    }
    if (cpus != null && cpus < 1) {
      throw new ParameterException(spec.commandLine(), "--cpus must be at least 1, not " + cpus);
    }
    if (maxGpusPerActor < 1) {
      throw new ParameterException(spec.commandLine(), "--max-gpus-per-actor must be at least 1");
    }
    if (noLocalWorker && (cpus != null || gpus != null)) {
      throw new ParameterException(spec.commandLine(), "--cpus and --gpus describe the local worker; drop them with --no-local-worker");
    }
    if (gpuCluster && mixed) {
      throw new ParameterException(spec.commandLine(), "--gpu-cluster and --mixed exclude each other: a mixed cluster "
          + "already lends GPUs beside CPUs");
    }
    if (!gpuCluster && !mixed && !standby && gpus != null) {
      throw new ParameterException(spec.commandLine(), "--gpus needs --gpu-cluster or --mixed (a CPU cluster lends no GPUs)");
    }
    if (gpuCluster && cpus != null) {
      throw new ParameterException(spec.commandLine(), "--cpus does not apply to a GPU cluster, which lends GPUs (--gpus)");
    }
    return join;
  }
}
