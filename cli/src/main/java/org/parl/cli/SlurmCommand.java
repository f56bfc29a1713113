package org.parl.cli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.parl.ConnectOptions;
import org.parl.control.ClusterType;
import org.parl.internal.security.ClusterToken;
import org.parl.node.MasterNode;
import org.parl.node.NodeFailure;
import org.parl.slurm.AllocationToken;
import org.parl.slurm.SlurmEnvironment;
import org.parl.slurm.SlurmNode;
import org.parl.slurm.SlurmNodes;
import org.parl.slurm.WorkerStep;
import org.parl.slurm.WorkersJoined;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code parl slurm -- COMMAND...}: inside a Slurm allocation, a whole cluster on its nodes (the master
 * on the first node, one worker per node through {@code srun}, each lending what Slurm bound there),
 * COMMAND run on the first node against it, and everything stopped when COMMAND ends or the
 * allocation is cancelled. Exits with COMMAND's status.
 */
@Command(name = "slurm", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = "Inside a Slurm allocation (an sbatch script): start a cluster on the allocation's nodes, run "
        + "COMMAND on the first node with PARL_ADDRESS and PARL_TOKEN_FILE set, stop everything when it ends, "
        + "and exit with its status.")
public final class SlurmCommand implements Callable<Integer> {

  private static final Logger log = LoggerFactory.getLogger(SlurmCommand.class);
  private static final long COMMAND_STOP_S = 10;

  @Spec
  CommandSpec spec;

  @ArgGroup(exclusive = true)
  Kind kind = new Kind();

  static final class Kind {
    @Option(names = "--gpu-cluster", description = "A GPU cluster (default when the allocation has GPUs).")
    boolean gpu;

    @Option(names = "--cpu-cluster", description = "A CPU cluster (default when the allocation has no GPUs).")
    boolean cpu;
  }

  @Option(names = "--port", defaultValue = "0", paramLabel = "PORT",
      description = "The master's port on the first node; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--max-gpus-per-actor", defaultValue = "8", paramLabel = "N",
      description = "Most GPUs one actor may ask for (default: ${DEFAULT-VALUE}).")
  int maxGpusPerActor;

  @Option(names = "--workers-timeout", defaultValue = "120", paramLabel = "SECONDS",
      description = "How long the workers of every node get to join before COMMAND runs (default: ${DEFAULT-VALUE}).")
  int workersTimeout;

  @Mixin
  HazelcastConfigOption hazelcastConfig;

  @Mixin
  GpuOptions gpuOptions;

  @Parameters(arity = "1..*", paramLabel = "COMMAND", description = "The program to run against the cluster, after --.")
  List<String> command;

  @Override
  public Integer call() {
    if (port < 0 || port > 65535) {
      throw new ParameterException(spec.commandLine(), "--port must be between 0 and 65535, not " + port);
    }
    if (workersTimeout < 1) {
      throw new ParameterException(spec.commandLine(), "--workers-timeout must be at least 1 second, not " + workersTimeout);
    }
    if (maxGpusPerActor < 1) {
      throw new ParameterException(spec.commandLine(), "--max-gpus-per-actor must be at least 1");
    }
    SlurmEnvironment env = SlurmEnvironment.current().requireAllocation("parl slurm");
    List<SlurmNode> nodes = SlurmNodes.of(env.nodeList());
    SlurmNode first = nodes.get(0);
    if (!first.name().equals(env.nodeName())) {
      throw new NodeFailure("'parl slurm' runs on the first node of the allocation, " + first.name() + ", and this is "
          + env.nodeName() + ": call it from the sbatch script itself, not from a step on another node");
    }
    ClusterType type = kind.gpu ? ClusterType.GPU : kind.cpu ? ClusterType.CPU
        : env.boundGpus().isEmpty() ? ClusterType.CPU : ClusterType.GPU;
    Allocation run = new Allocation(AllocationToken.create(env.jobId()));
    Thread hook = new Thread(run::stop, "parl-slurm-stop");
    Runtime.getRuntime().addShutdownHook(hook); // scancel, time limit: SIGTERM to the batch script
    try {
      run.master = MasterNode.start(new MasterNode.Spec(first.address(), port, null, type, null, maxGpusPerActor,
          hazelcastConfig.file, false), run.token.token(), why -> System.err.println("parl: " + why));
      String address = run.master.info.address();
      System.out.println(run.master.readyLine());
      System.out.println("parl slurm: job " + env.jobId() + ", nodes " + nodes + "; starting a worker on each with srun");
      run.workers = WorkerStep.start(env.jobId(), nodes.size(), workerCommand(address), run.token.file());
      WorkersJoined.await(run.master.node, nodes.size(), run.workers.process(), Duration.ofSeconds(workersTimeout));
      System.out.println("parl slurm: " + nodes.size() + " workers joined the " + type.name() + " cluster at " + address
          + "; running " + String.join(" ", command));
      int status = run.runCommand(command, address);
      System.out.println("parl slurm: the command exited with status " + status + "; stopping the cluster");
      return status;
    } finally {
      run.stop();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // the JVM is already shutting down: the hook runs stop(), which has run
      }
    }
  }

  /** {@code java <this JVM's flags> -jar parl.jar worker --slurm --address ADDRESS}. */
  private List<String> workerCommand(String address) {
    List<String> cmd = new ArrayList<>();
    cmd.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    cmd.addAll(List.of("-jar", jar().toString(), "worker", "--slurm", "--address", address));
    if (gpuOptions.nvidiaSmi != null) {
      cmd.addAll(List.of("--nvidia-smi", gpuOptions.nvidiaSmi));
    }
    return cmd;
  }

  private static Path jar() {
    try {
      return Path.of(SlurmCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new NodeFailure("cannot find the parl jar: " + e.getMessage());
    }
  }

  /** One run: what it started, stopped once, in reverse order, from the main thread or the shutdown hook. */
  private static final class Allocation {
    final AllocationToken token;
    volatile MasterNode master;
    volatile WorkerStep workers;
    volatile Process program;
    private boolean stopped;

    Allocation(AllocationToken token) {
      this.token = token;
    }

    int runCommand(List<String> command, String address) {
      ProcessBuilder pb = new ProcessBuilder(command).inheritIO();
      Map<String, String> env = pb.environment();
      env.remove(ClusterToken.TOKEN_ENV);
      env.put(ConnectOptions.ADDRESS_ENV, address);
      env.put(ClusterToken.TOKEN_FILE_ENV, token.file().toString());
      try {
        program = pb.start();
      } catch (IOException e) {
        throw new NodeFailure("cannot run " + command.get(0) + ": " + e.getMessage());
      }
      try {
        return program.waitFor();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new NodeFailure("interrupted while " + command.get(0) + " ran");
      }
    }

    synchronized void stop() {
      if (stopped) {
        return;
      }
      stopped = true;
      // first: the nodes and the command hold the token in memory, and Slurm's SIGKILL (KillWait after
      // its SIGTERM) may end this process before the steps below are done
      token.close();
      log.info("stopping: the allocation's token {} is deleted", token.file());
      Process p = program;
      if (p != null && p.isAlive()) {
        log.info("stopping the command (pid {})", p.pid());
        stopTree(p.toHandle());
      }
      if (workers != null) {
        workers.stop();
      }
      if (master != null) {
        master.close();
        log.info("stopped: the master");
      }
    }

    /** SIGTERM, then SIGKILL to what is left of the tree after {@value #COMMAND_STOP_S} s. */
    private static void stopTree(ProcessHandle p) {
      List<ProcessHandle> tree = new ArrayList<>(p.descendants().toList());
      p.destroy();
      try {
        p.onExit().get(COMMAND_STOP_S, TimeUnit.SECONDS);
      } catch (Exception e) {
        log.warn("the command did not stop within {} s of SIGTERM; killing it", COMMAND_STOP_S);
      }
      tree.add(p);
      tree.forEach(ProcessHandle::destroyForcibly);
    }
  }
}
