package org.parl.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.stream.Stream;
import org.parl.ConnectOptions;
import org.parl.Parl;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.internal.security.ClusterToken;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of {@code parl bench}: starts the plain-TCP echo server, a GPU cluster with fake GPUs
 * and, unless given a cluster's address, a CPU cluster, side by side; measures the data path, actor
 * creation and {@code Parl.connect} on the CPU cluster, then (on a cluster it started) the data
 * path again on a CPU cluster with {@code --encrypt-data}, then GPU actor creation and placement
 * groups ({@link GroupBenchmark}), then (again only without an address) the data path across hosts
 * ({@link CrossHostBenchmark}). Every process it started is stopped by pid at the end, also when it
 * fails.
 */
public final class BenchRun {

  private static final Logger log = LoggerFactory.getLogger(BenchRun.class);
  /** Without access to the worker's processes, how long to let its warm pool refill. */
  private static final long REMOTE_PAUSE_MS = 2_000;
  private static final int CALL_ACTORS = 4;
  /** Calls each actor serves before its job's memory is read. */
  private static final int ACTOR_MEMORY_CALLS = 100;

  /**
   * @param address a running CPU cluster's {@code HOST:PORT}, or null to start one
   * @param quick fewer iterations ({@link BenchPlan#quick()})
   * @param scale instead of everything else, the scale benchmark with simulated workers as this
   *     plan says ({@link #scalePlan}); null for the usual run
   * @param crossHostOnly instead of everything else, only the rows across hosts (with no address)
   */
  public record Options(String address, boolean quick, ScalePlan scale, boolean crossHostOnly) {}

  /**
   * The plan of {@code --scale}: the standard one, or with the given worker counts, connections and
   * a fixed number of allocations at each count (for a quick check).
   *
   * @param workers null for 10, 100 and 1 000
   * @param connections 0 for the standard number
   * @param allocations 0 for a timed run
   */
  public static ScalePlan scalePlan(List<Integer> workers, int connections, int allocations) {
    ScalePlan s = ScalePlan.standard();
    return new ScalePlan(workers == null ? s.workers() : workers, connections > 0 ? connections : s.connections(),
        s.cpusEach(), s.warmupMs(), s.measureMs(), allocations);
  }

  private final Options options;
  private final BenchPlan plan;
  private final Report report = new Report();
  private final JavaCommand java;
  private Path dir;
  /** The plain-TCP echo server's JVM: the baseline of the job memory rows. */
  private ProcessHandle echoJvm;
  /** The token of the clusters the benchmark starts itself. */
  private Path token;

  private BenchRun(Options options, JavaCommand java) {
    this.options = options;
    this.plan = BenchPlan.of(options.quick());
    this.java = java;
  }

  /** Runs the benchmark; what went wrong is in the exception's message. */
  public static BenchResult run(Options options) throws Exception {
    return new BenchRun(options, JavaCommand.locate()).execute();
  }

  private BenchResult execute() throws Exception {
    long started = System.nanoTime();
    dir = Files.createTempDirectory("parl-bench");
    token = ownToken(dir);
    if (options.scale() != null) {
      return executeScale(started);
    }
    report.context("mode", plan.mode());
    report.context("cores", Runtime.getRuntime().availableProcessors());
    report.context("cpu", cpuModel());
    report.context("java", System.getProperty("java.vm.version"));
    report.context("parl", String.valueOf(BenchRun.class.getPackage().getImplementationVersion()));
    report.context("loadAvgStart", loadAverage());
    report.context("cluster", options.crossHostOnly() ? "own, across hosts (1 CPU)"
        : options.address() == null ? "own (4 CPUs)" : options.address());
    report.context("fakeGpus", !options.crossHostOnly());
    try (ChildProcesses children = new ChildProcesses()) {
      if (!options.crossHostOnly()) {
        sameHost(children);
      }
      if (options.address() == null) {
        new CrossHostBenchmark(options.quick(), java, children, dir, token, report).run();
      }
    } catch (Exception e) {
      throw new IllegalStateException(e.getMessage() + " (logs in " + dir + ")", e);
    }
    report.context("loadAvgEnd", loadAverage());
    report.context("seconds", Math.round((System.nanoTime() - started) / 1e9));
    if (!options.crossHostOnly()) {
      report.note("GPU rows: a GPU cluster whose nvidia-smi is a script listing 4 fake GPUs; its job processes are real JVMs.");
      report.note("Placement group rows: groups without actors on that cluster; the reserve row's \"vs TCP\" is its ratio to "
          + "the warm 1-GPU actor create of this run.");
    }
    report.note("vs TCP: parl's figure divided by the plain-Java TCP echo between two JVMs measured in the same run, "
        + "in alternating blocks.");
    encryptionNote();
    deleteTree(dir);
    return new BenchResult(report);
  }

  /** Everything but the rows across hosts: the data path, creation and connect; TLS; GPU creation. */
  private void sameHost(ChildProcesses children) throws Exception {
    EchoProcess echo = EchoProcess.start(children, "echo", java.program(EchoServer.class, List.of()), dir.resolve("echo.log"));
    echoJvm = ProcessHandle.of(echo.process().pid()).orElse(null);
    LocalCluster own = null;
    if (options.address() == null) {
      log.info("starting a CPU cluster (a master whose local worker lends {} CPUs) and a GPU cluster with {} fake GPUs",
          LocalCluster.CPUS, LocalCluster.GPUS);
      own = LocalCluster.startCpu(children, java, dir, token);
    } else {
      log.info("starting a GPU cluster with {} fake GPUs; it idles until the CPU part is done", LocalCluster.GPUS);
    }
    LocalCluster gpu = LocalCluster.startGpu(children, java, dir, token);
    try (TcpEcho tcp = new TcpEcho(InetAddress.getLoopbackAddress(), echo.port(), echo.process().pid())) {
      cpuCluster(children, own, gpu, tcp);
      if (own != null) {
        encryptedCluster(children, tcp);
      }
    }
    children.stop(echo.process());
    gpuCluster(children, gpu);
  }

  /** {@code --scale}: only the scale benchmark, on a cluster of simulated workers of its own. */
  private BenchResult executeScale(long started) throws Exception {
    ScalePlan scale = options.scale();
    report.context("mode", "scale");
    report.context("cores", Runtime.getRuntime().availableProcessors());
    report.context("cpu", cpuModel());
    report.context("java", System.getProperty("java.vm.version"));
    report.context("loadAvgStart", loadAverage());
    report.context("workers", scale.workers().toString());
    report.context("connections", scale.connections());
    try (ChildProcesses children = new ChildProcesses()) {
      new ScaleBenchmark(scale, java, children, dir, token, report).run();
    } catch (Exception e) {
      throw new IllegalStateException(e.getMessage() + " (logs in " + dir + ")", e);
    }
    report.context("loadAvgEnd", loadAverage());
    report.context("seconds", Math.round((System.nanoTime() - started) / 1e9));
    report.note("scale rows: a master without a local worker and " + ScaleBenchmark.PROCESSES + " member processes of "
        + "simulated workers (their jobs are not processes); " + scale.connections() + " gateway connections each "
        + "allocate a 1-CPU job and release it, one at a time; a cycle ends when the gateway told the job's end. "
        + "PARL: its JobCenter's allocate+release in process, no network.");
    deleteTree(dir);
    return new BenchResult(report);
  }

  private void cpuCluster(ChildProcesses children, LocalCluster own, LocalCluster gpu, TcpEcho tcp) throws Exception {
    String address = own != null ? own.address() : options.address();
    JobPool pool = own != null ? JobPool.watching(own.master.pid()) : JobPool.pausing(REMOTE_PAUSE_MS);
    int warmJobs = own != null ? LocalCluster.CPUS : 0;
    Path clusterToken = own != null ? token : null; // a cluster given by address: its token is found as usual
    try (ParlClient parl = connect(address, clusterToken)) {
      if (!"cpu".equals(parl.clusterType())) {
        throw new IllegalStateException("the cluster at " + address + " is a " + parl.clusterType()
            + " cluster; give the address of a CPU cluster (the GPU part runs on a cluster the benchmark starts)");
      }
      gpu.address();
      JobPool.watching(gpu.master.pid()).awaitIdle(LocalCluster.GPUS);
      pool.awaitIdle(warmJobs);
      List<ProcessHandle> warm = own != null ? pool.jobs() : List.of();
      jobMemory("idle_job_rss_mb", "idle job resident memory (warm pool), median", warm);
      List<RemoteActor<BenchActor>> actors = new ArrayList<>();
      try {
        long t0 = System.nanoTime();
        actors.add(parl.actor(BenchActor.class, BenchActorImpl.class).createAsync().await());
        report.add(new Metric("first_create_ms", "first actor create of this client", (System.nanoTime() - t0) / 1e6,
            "ms", null, null, null));
        for (int i = 1; i < CALL_ACTORS; i++) {
          actors.add(parl.actor(BenchActor.class, BenchActorImpl.class).createAsync().await());
        }
        if (own != null) {
          for (RemoteActor<BenchActor> a : actors) {
            for (int i = 0; i < ACTOR_MEMORY_CALLS; i++) {
              a.proxy().noop();
            }
          }
          pool.awaitIdle(warmJobs + CALL_ACTORS);
          // the actors took the warm processes measured above (the pool refilled with new ones)
          jobMemory("actor_job_rss_mb", "job holding an idle actor, resident memory, median", warm);
        }
        settleAfterCreates(pool, warmJobs);
        new CallBenchmark(plan, actors, tcp, report).run();
      } finally {
        actors.forEach(RemoteActor::close);
      }
      socketArrays(address, clusterToken, pool, warmJobs, tcp);
      new CreateBenchmark(plan, parl, pool, warmJobs, own != null ? LocalCluster.CPUS - 1 : 0, report, tcp).run();
      new ConnectBenchmark(plan, java, children, dir, address, clusterToken, pool, warmJobs, report, tcp).run();
    }
    if (own != null) {
      children.stop(own.master);
    }
  }

  /**
   * The rows marked TLS: a second CPU cluster, started with {@code --encrypt-data} once the first
   * has stopped, with the same actors and the same plain-TCP baseline measured alongside.
   */
  private void encryptedCluster(ChildProcesses children, TcpEcho tcp) throws Exception {
    log.info("starting a CPU cluster with --encrypt-data (a master whose local worker lends {} CPUs)", LocalCluster.CPUS);
    LocalCluster tls = LocalCluster.startCpuEncrypted(children, java, dir, token);
    try (ParlClient parl = connect(tls.address(), token)) {
      JobPool.watching(tls.master.pid()).awaitIdle(LocalCluster.CPUS);
      List<RemoteActor<BenchActor>> actors = new ArrayList<>();
      try {
        for (int i = 0; i < CALL_ACTORS; i++) {
          actors.add(parl.actor(BenchActor.class, BenchActorImpl.class).createAsync().await());
        }
        settleAfterCreates(JobPool.watching(tls.master.pid()), LocalCluster.CPUS);
        new CallBenchmark(plan, actors, tcp, report).runEncrypted();
      } finally {
        actors.forEach(RemoteActor::close);
      }
    }
    children.stop(tls.master);
  }

  /**
   * The median resident memory of these job processes, as a row with its target and its ratio to the
   * plain-TCP echo server's JVM (an idle plain Java process, measured at the same moment); none when
   * none is left.
   */
  private void jobMemory(String key, String name, List<ProcessHandle> jobs) {
    OptionalDouble plain = echoJvm == null ? OptionalDouble.empty() : JobMemory.medianMb(List.of(echoJvm));
    JobMemory.medianMb(jobs).ifPresent(mb -> report.add(new Metric(key, name + " of " + jobs.size(), mb, "MB", "105 MB",
        Target.atMost(50, "<= 50 MB"), plain.isPresent() ? mb / plain.getAsDouble() : null)));
    plain.ifPresent(mb -> report.add(new Metric(key + "_tcp", "plain TCP baseline: the echo server JVM, resident memory", mb,
        "MB", null, null, null)));
  }

  /**
   * Waits until the worker has replaced the warm processes the call actors took: each replacement
   * is a JVM start (about 1.2 s of CPU here), which would otherwise share the two cores with the
   * round trips and the calls/s being measured.
   */
  private static void settleAfterCreates(JobPool pool, int warmJobs) throws InterruptedException {
    if (warmJobs > 0) {
      log.info("waiting for the warm pool to be refilled and idle");
      pool.awaitIdle(warmJobs + CALL_ACTORS);
    }
  }

  /**
   * The 1 MB and 8 MB echoes again from a client with shared memory turned off
   * ({@link ConnectOptions#setSharedMemory}): the socket path that a job on another host gets, next to
   * the same plain-TCP baseline. Measured once the call actors are closed, with an actor of its own.
   */
  private void socketArrays(String address, Path tokenFile, JobPool pool, int warmJobs, TcpEcho tcp) throws Exception {
    try (ParlClient viaSocket = Parl.connect(new ConnectOptions(address).setTokenFile(tokenFile).setSharedMemory(false))) {
      RemoteActor<BenchActor> actor = viaSocket.actor(BenchActor.class, BenchActorImpl.class).createAsync().await();
      try {
        if (warmJobs > 0) {
          pool.awaitIdle(warmJobs + 1);
        }
        new CallBenchmark(plan, List.of(actor), tcp, report).runSocketArrays();
      } finally {
        actor.close();
      }
    }
  }

  /** One line of what TLS costs, as ratios to the plain data path of this same run. */
  private void encryptionNote() {
    StringBuilder line = new StringBuilder();
    for (String key : List.of("noop_p50_us", "echo_1mb_p50_ms", "calls_per_s_1_actor", "calls_per_s_4_actors")) {
      Double plain = report.value(key);
      Double tls = report.value(key + "_tls");
      if (plain != null && tls != null && plain > 0) {
        line.append(line.length() == 0 ? "" : ", ").append(key).append(String.format(Locale.ROOT, " %.2fx", tls / plain));
      }
    }
    if (line.length() > 0) {
      report.note("TLS rows: a CPU cluster started with --encrypt-data, measured after the plain one; TLS/plain: " + line + ".");
    }
  }

  private void gpuCluster(ChildProcesses children, LocalCluster gpu) throws Exception {
    try (ParlClient parl = connect(gpu.address(), token)) {
      JobPool pool = JobPool.watching(gpu.master.pid());
      new GpuCreateBenchmark(plan, parl, pool, LocalCluster.GPUS, report).run();
      new GroupBenchmark(plan, parl, pool, LocalCluster.GPUS, report).run();
    }
    children.stop(gpu.master);
  }

  /** @param tokenFile the cluster's token file, or null to find the token as users do */
  private static ParlClient connect(String address, Path tokenFile) {
    return Parl.connect(new ConnectOptions(address).setTokenFile(tokenFile));
  }

  /** A fresh cluster token (mode 600) for the clusters the benchmark starts. */
  private static Path ownToken(Path dir) throws IOException {
    Path file = dir.resolve("token");
    Files.writeString(file, HexFormat.of().formatHex(ClusterToken.nonce(32)) + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }

  private static String cpuModel() {
    try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
      return lines.filter(l -> l.startsWith("model name")).map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst()
          .orElse(System.getProperty("os.arch"));
    } catch (IOException | RuntimeException e) {
      return System.getProperty("os.arch");
    }
  }

  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      log.debug("could not delete {}: {}", root, e.getMessage());
    }
  }
}
