package org.parl.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.parl.bench.netns.NetnsBed;
import org.parl.demo.FakeNvidiaSmi;

/**
 * A cluster the benchmark starts for itself: {@code parl master --port 0} as a child process with
 * a private {@code PARL_HOME} and the benchmark's own token file, its local worker lending 4 CPUs
 * (with or without {@code --encrypt-data}), or 4 fake GPUs on a GPU cluster.
 * Starting returns at once, so that two clusters can start side by side; {@link #address()} waits
 * until the master says it is ready.
 */
final class LocalCluster {

  static final int CPUS = 4;
  static final int GPUS = 4;
  private static final Pattern READY = Pattern.compile("parl master ready: address (\\S+?),");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

  final ChildProcess master;
  private final String kind;
  private final ChildProcesses children;
  private String address;

  private LocalCluster(ChildProcess master, String kind, ChildProcesses children) {
    this.master = master;
    this.kind = kind;
    this.children = children;
  }

  static LocalCluster startCpu(ChildProcesses children, JavaCommand java, Path dir, Path token) throws IOException {
    return start(children, java, dir, "cpu", List.of("--cpus", String.valueOf(CPUS), "--token-file", token.toString()));
  }

  /** A CPU cluster whose data path is encrypted ({@code --encrypt-data}). */
  static LocalCluster startCpuEncrypted(ChildProcesses children, JavaCommand java, Path dir, Path token) throws IOException {
    return start(children, java, dir, "cpu-tls", List.of("--cpus", String.valueOf(CPUS), "--encrypt-data",
        "--token-file", token.toString()));
  }

  /** A CPU cluster whose master lends nothing: workers join it from other processes. */
  static LocalCluster startBare(ChildProcesses children, JavaCommand java, Path dir, Path token) throws IOException {
    return start(children, java, dir, "bare", List.of("--no-local-worker", "--token-file", token.toString()));
  }

  static LocalCluster startGpu(ChildProcesses children, JavaCommand java, Path dir, Path token) throws IOException {
    Path smi = FakeNvidiaSmi.write(dir, GPUS);
    return start(children, java, dir, "gpu", List.of("--gpu-cluster", "--nvidia-smi", smi.toString(),
        "--token-file", token.toString()));
  }

  /**
   * A CPU cluster on host {@code host} of a bed of network namespaces: the master, and its local
   * worker lending {@code cpus} CPUs, bind that host's address.
   */
  static LocalCluster startInside(NetnsBed bed, int host, int cpus, ChildProcesses children, JavaCommand java, Path dir,
      Path token) throws IOException {
    return start(children, dir, "cross-host", args -> bed.inside(host, java.parl(args)), List.of("--host", bed.address(host),
        "--cpus", String.valueOf(cpus), "--token-file", token.toString()));
  }

  private static LocalCluster start(ChildProcesses children, JavaCommand java, Path dir, String kind, List<String> extra)
      throws IOException {
    return start(children, dir, kind, java::parl, extra);
  }

  /** @param command the command line that runs {@code parl} with the given arguments */
  private static LocalCluster start(ChildProcesses children, Path dir, String kind, UnaryOperator<List<String>> command,
      List<String> extra) throws IOException {
    Path home = Files.createDirectories(dir.resolve("home-" + kind));
    List<String> args = new ArrayList<>(List.of("master", "--port", "0"));
    args.addAll(extra);
    ChildProcess p = children.add(ChildProcess.start("master-" + kind, command.apply(args),
        Map.of("PARL_HOME", home.toString()), dir.resolve("master-" + kind + ".log")));
    return new LocalCluster(p, kind, children);
  }

  /** The master's {@code HOST:PORT}, once it is ready. */
  synchronized String address() throws InterruptedException {
    if (address == null) {
      Optional<Matcher> ready = master.awaitLine(READY, 0, START_TIMEOUT);
      if (ready.isEmpty()) {
        String why = master.isAlive() ? "did not say it was ready within " + START_TIMEOUT.toSeconds() + " s"
            : "exited (" + master.tail(3) + ")";
        children.stop(master);
        throw new IllegalStateException("the " + kind.toUpperCase() + " cluster's master " + why + "; its log is " + master.log());
      }
      address = ready.get().group(1);
    }
    return address;
  }
}
