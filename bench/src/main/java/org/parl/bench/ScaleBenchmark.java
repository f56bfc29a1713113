package org.parl.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.parl.internal.net.HostPort;
import org.parl.internal.security.ClusterToken;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code parl bench --scale}: allocations per second through the gateway and the JobCenter (with
 * its cluster-map write-through) at growing numbers of workers. A master without a local worker,
 * and {@value #PROCESSES} processes of {@link SimulatedWorkers} that join it as members; at each
 * worker count, gateway clients allocate and release as fast as they can ({@link ScaleLoad}), then
 * the JobCenter must be whole again: every job released, no CPU used, its invariant ok. Any
 * difference fails the run.
 */
final class ScaleBenchmark {

  private static final Logger log = LoggerFactory.getLogger(ScaleBenchmark.class);
  static final int PROCESSES = 2;
  private static final Pattern JOINED = Pattern.compile("parl scale workers: joined");
  private static final Pattern REGISTERED = Pattern.compile("parl scale workers: registered (\\d+)");
  private static final Pattern CHECKED = Pattern.compile(
      "parl scale check: workers=(\\d+) jobs=(\\d+) waiting=(\\d+) cpusUsed=(\\d+) invariant=(.*)");
  private static final Duration STEP_TIMEOUT = Duration.ofSeconds(150);
  private static final double TARGET_PER_S = 5_000;
  private static final double TARGET_P99_MS = 20;
  private static final int TARGET_WORKERS = 1_000;
  private static final long TCP_WARMUP_MS = 1_000;
  private static final long TCP_MS = 2_000;

  private final ScalePlan plan;
  private final JavaCommand java;
  private final ChildProcesses children;
  private final Path dir;
  private final Path token;
  private final Report report;

  ScaleBenchmark(ScalePlan plan, JavaCommand java, ChildProcesses children, Path dir, Path token, Report report) {
    this.plan = plan;
    this.java = java;
    this.children = children;
    this.dir = dir;
    this.token = token;
    this.report = report;
  }

  void run() throws Exception {
    double tcpRate = tcpBaseline();
    LocalCluster cluster = LocalCluster.startBare(children, java, dir, token);
    String address = cluster.address();
    List<ChildProcess> processes = new ArrayList<>();
    for (int i = 0; i < PROCESSES; i++) { // one after the other: Hazelcast joins are serial anyway
      String name = "scale-workers-" + (i + 1);
      ChildProcess p = children.add(ChildProcess.startReading(name, java.node(ScaleWorkersMain.class,
          List.of(address, token.toString(), "sim" + (i + 1), String.valueOf(plan.cpusEach()))), Map.of(),
          dir.resolve(name + ".log")));
      expect(p, JOINED, 0, "join the cluster");
      processes.add(p);
    }
    Double first = null;
    int have = 0;
    for (int workers : plan.workers()) {
      register(processes, workers - have);
      have = workers;
      log.info("scale: {} simulated workers registered; {} connections allocate and release", workers, plan.connections());
      long masterTicks = JobPool.cpuTicks(ProcessHandle.of(cluster.master.pid()).orElseThrow());
      long workerTicks = ticks(processes);
      ScaleLoad.Result r = new ScaleLoad(plan, HostPort.parse(address), ClusterToken.find(token)).run();
      masterTicks = JobPool.cpuTicks(ProcessHandle.of(cluster.master.pid()).orElseThrow()) - masterTicks;
      workerTicks = ticks(processes) - workerTicks;
      String whole = checkWhole(processes.get(0), workers);
      add(workers, r, tcpRate);
      // CPU time per cycle: what the figures would be on an idle host (this one is shared)
      report.add(new Metric("scale_" + workers + "w_master_cpu_us", "  master CPU per allocate+release, " + workers
          + " workers", masterTicks * 10_000.0 / Math.max(1, r.allCycles()), "us", null, null, null));
      report.add(new Metric("scale_" + workers + "w_workers_cpu_us", "  simulated workers' CPU per cycle, " + workers
          + " workers", workerTicks * 10_000.0 / Math.max(1, r.allCycles()), "us", null, null, null));
      report.note(String.format(Locale.ROOT, "scale, %d workers: %d allocate+release cycles in %.1f s; then %s.",
          workers, r.cycles(), r.seconds(), whole));
      first = first == null ? r.perSecond() : first;
      if (workers == plan.workers().get(plan.workers().size() - 1) && plan.workers().size() > 1) {
        report.note(String.format(Locale.ROOT, "scale: at %d workers %.2fx the rate at %d (1.00 is flat).", workers,
            r.perSecond() / first, plan.workers().get(0)));
      }
    }
    for (ChildProcess p : processes) {
      children.stop(p);
    }
    children.stop(cluster.master);
  }

  /**
   * Before the cluster starts: an echo server JVM and as many plain-TCP connections as the load has
   * gateway connections, each making 16-byte round trips in a loop; the same-run floor that an
   * allocate+release (two round trips of its client, at least) is compared with.
   */
  private double tcpBaseline() throws Exception {
    EchoProcess echo = EchoProcess.start(children, "echo-scale", java.program(EchoServer.class, List.of()),
        dir.resolve("echo-scale.log"));
    List<TcpEcho> connections = new ArrayList<>();
    try {
      for (int i = 0; i < plan.connections(); i++) {
        connections.add(new TcpEcho(echo.port()));
      }
      byte[] sixteen = new byte[16];
      Timed.Caller roundTrip = i -> connections.get(i).roundTrip(sixteen);
      Timed.countCalls(connections.size(), roundTrip, TCP_WARMUP_MS);
      double rate = Timed.countCalls(connections.size(), roundTrip, TCP_MS) * 1000.0 / TCP_MS;
      report.add(new Metric("scale_tcp_round_trips_per_s", "plain TCP baseline: 16 B round trips/s, " + connections.size()
          + " connections", rate, "/s", null, null, null));
      return rate;
    } finally {
      for (TcpEcho c : connections) {
        c.close();
      }
      children.stop(echo.process());
    }
  }

  /** CPU time (clock ticks) of the simulated-worker processes. */
  private static long ticks(List<ChildProcess> processes) {
    return processes.stream().mapToLong(p -> ProcessHandle.of(p.pid()).map(JobPool::cpuTicks).orElse(0L)).sum();
  }

  /** Adds {@code n} workers, spread over the processes, and waits until each process registered its share. */
  private void register(List<ChildProcess> processes, int n) throws InterruptedException {
    int[] from = new int[processes.size()];
    for (int i = 0; i < processes.size(); i++) {
      from[i] = processes.get(i).lineCount();
      int share = n / processes.size() + (i < n % processes.size() ? 1 : 0);
      processes.get(i).send("add " + share);
    }
    for (int i = 0; i < processes.size(); i++) {
      expect(processes.get(i), REGISTERED, from[i], "register its workers");
    }
  }

  /** The JobCenter's state after a measurement, which must be whole: how it was, in words. */
  private String checkWhole(ChildProcess p, int workers) throws InterruptedException {
    int from = p.lineCount();
    p.send("check");
    Matcher m = expect(p, CHECKED, from, "read the JobCenter's state");
    String state = "the JobCenter held " + m.group(1) + " workers, " + m.group(2) + " jobs, " + m.group(3)
        + " waiting requests, " + m.group(4) + " CPUs in use, invariant " + m.group(5);
    if (Integer.parseInt(m.group(1)) != workers || !m.group(2).equals("0") || !m.group(3).equals("0")
        || !m.group(4).equals("0") || !m.group(5).equals("ok")) {
      throw new IllegalStateException("after the scale run at " + workers + " workers the pool is not whole: " + state);
    }
    return state;
  }

  private static Matcher expect(ChildProcess p, Pattern line, int from, String what) throws InterruptedException {
    return p.awaitLine(line, from, STEP_TIMEOUT).orElseThrow(() -> new IllegalStateException("a simulated-workers process did "
        + "not " + what + " within " + STEP_TIMEOUT.toSeconds() + " s: " + p.tail(3) + " (its log: " + p.log() + ")"));
  }

  /** @param tcpRate the plain-TCP baseline's round trips per second ({@link #tcpBaseline}) */
  private void add(int workers, ScaleLoad.Result r, double tcpRate) {
    boolean goal = workers == TARGET_WORKERS;
    String key = "scale_" + workers + "w_";
    String parl = workers == 10 ? "210 000" : workers == 100 ? "43 000" : workers == 1_000 ? "4 500" : null;
    report.add(new Metric(key + "alloc_release_per_s", "allocate+release/s, " + workers + " simulated workers",
        r.perSecond(), "/s", parl == null ? null : parl + " (in-process)",
        goal ? Target.atLeast(TARGET_PER_S, ">= 5 000") : null, r.perSecond() / tcpRate));
    report.add(new Metric(key + "cycle_p50_ms", "  allocate+release p50, " + workers + " workers",
        r.cycleTimes().millis(50), "ms", null, null, null));
    report.add(new Metric(key + "cycle_p99_ms", "  allocate+release p99, " + workers + " workers",
        r.cycleTimes().millis(99), "ms", null, goal ? Target.atMost(TARGET_P99_MS, "<= 20") : null, null));
    report.add(new Metric(key + "allocate_p50_ms", "  allocate (create answered) p50, " + workers + " workers",
        r.allocateTimes().millis(50), "ms", null, null, null));
  }
}
