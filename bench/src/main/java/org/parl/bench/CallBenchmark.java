package org.parl.bench;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import org.parl.RemoteActor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data path: round trips of small calls and of arrays through blocking proxies, throughput
 * with one and several actors, and pipelined async calls, each measured next to the plain-TCP
 * baseline where one applies. On a cluster started with {@code --encrypt-data}, {@link #runEncrypted}
 * measures the same small round trips, 1 MB arrays and throughput, as rows marked TLS. The array
 * rows measure the default path, which for a job on the client's host is shared memory;
 * {@link #runSocketArrays} measures the socket path (shared memory turned off) as rows marked socket,
 * and {@link #runAcrossHosts}, from a client on another host than the job, the rows marked across hosts.
 */
final class CallBenchmark {

  private static final Logger log = LoggerFactory.getLogger(CallBenchmark.class);
  static final int MB = 1 << 20;
  /** The counted part of a throughput measurement is split into this many blocks of each kind. */
  private static final int THROUGHPUT_BLOCKS = 3;

  private final BenchPlan plan;
  private final List<RemoteActor<BenchActor>> actors;
  private final TcpEcho tcp;
  private final Report report;
  /** Appended to the keys and names of the rows: empty, or the TLS variant's. */
  private String keySuffix = "";
  private String nameSuffix = "";

  CallBenchmark(BenchPlan plan, List<RemoteActor<BenchActor>> actors, TcpEcho tcp, Report report) {
    this.plan = plan;
    this.actors = actors;
    this.tcp = tcp;
    this.report = report;
  }

  void run() throws Exception {
    BenchActor one = actors.get(0).proxy();
    small(one, Target.atMostAndRatio(128, 1.3, "<= 128 µs, <= 1.3x TCP"));
    placements(one);
    arrays(one);
    throughput(1, "calls_per_s_1_actor", "calls/s, 1 actor, blocking", null, null);
    throughput(actors.size(), "calls_per_s_4_actors", "calls/s, " + actors.size() + " actors, 1 thread each",
        "8 506", Target.atLeast(40_000, ">= 40 000"));
    async(actors.get(0));
  }

  /** The rows that show what {@code --encrypt-data} costs, keyed {@code ..._tls}; no targets. */
  void runEncrypted() throws Exception {
    BenchActor one = rowsMarked("_tls", ", TLS");
    small(one, null);
    log.info("measuring 1 MB float[] echo with TLS and plain TCP echo");
    arraySize(one, 1, plan.arrays1MbPerRound(), null, null);
    throughput(1, "calls_per_s_1_actor", "calls/s, 1 actor, blocking", null, null);
    throughput(actors.size(), "calls_per_s_4_actors", "calls/s, " + actors.size() + " actors, 1 thread each", null, null);
  }

  /** The 1 MB and 8 MB echoes of an actor whose client turned shared memory off, keyed {@code ..._socket}; no targets. */
  void runSocketArrays() throws Exception {
    BenchActor one = rowsMarked("_socket", ", socket (sharedMemory off)");
    log.info("measuring 1 MB and 8 MB float[] echo through the socket (shared memory off) and plain TCP echo");
    arraySize(one, 1, plan.arrays1MbPerRound(), null, null);
    arraySize(one, 8, plan.arrays8MbPerRound(), null, null);
  }

  /**
   * From a client on another host than its actor's job (so no shared memory), next to a plain-TCP
   * echo between the same two hosts: small round trips, and the 1 MB and 8 MB echoes with the
   * target of at most 1.3x the TCP echo of the same size; keyed {@code ..._cross_host}.
   */
  void runAcrossHosts() throws Exception {
    BenchActor one = rowsMarked("_cross_host", ", across hosts");
    small(one, null);
    log.info("measuring 1 MB and 8 MB float[] echo across hosts and plain TCP echo between the same hosts");
    Target ratio = Target.ratioAtMost(1.3, "<= 1.3x TCP");
    arraySize(one, 1, plan.arrays1MbPerRound(), null, ratio);
    arraySize(one, 8, plan.arrays8MbPerRound(), null, ratio);
  }

  /** From now on rows carry these suffixes; the first actor, which the variants measure. */
  private BenchActor rowsMarked(String key, String name) {
    keySuffix = key;
    nameSuffix = name;
    return actors.get(0).proxy();
  }

  private Metric metric(String key, String name, double value, String unit, String parl, Target target, Double vsTcp) {
    return new Metric(key + keySuffix, name + nameSuffix, value, unit, parl, target, vsTcp);
  }

  private void small(BenchActor a, Target noopTarget) throws Exception {
    log.info("measuring small round trips (noop, add, 16-byte TCP echo){}", nameSuffix);
    byte[] sixteen = new byte[16];
    Timed.repeatFor(() -> tcp.roundTrip(sixteen), plan.smallWarmup(), plan.smallWarmupMs());
    Timed.repeatFor(a::noop, plan.smallWarmup(), plan.smallWarmupMs());
    Timed.repeatFor(() -> a.add(1), plan.smallWarmup() / 2, plan.smallWarmupMs() / 2);
    int n = plan.smallRounds() * plan.smallPerRound();
    Samples tcp16 = new Samples(n);
    Samples noop = new Samples(n);
    Timed.interleave(plan.smallRounds(), plan.smallPerRound(), () -> tcp.roundTrip(sixteen), tcp16, a::noop, noop);
    Samples add = new Samples(plan.addCalls());
    Timed.record(() -> a.add(1), plan.addCalls(), add);

    double tcp50 = tcp16.micros(50);
    double tcp99 = tcp16.micros(99);
    report.add(metric("tcp_16b_p50_us", "plain TCP echo 16 B, p50 (baseline)", tcp50, "µs", null, null, null));
    report.add(metric("tcp_16b_p99_us", "plain TCP echo 16 B, p99 (baseline)", tcp99, "µs", null, null, null));
    report.add(metric("noop_p50_us", "noop() round trip, p50", noop.micros(50), "µs", noopTarget == null ? null : "256 µs",
        noopTarget, noop.micros(50) / tcp50));
    report.add(metric("noop_p99_us", "noop() round trip, p99", noop.micros(99), "µs", null, null, noop.micros(99) / tcp99));
    report.add(metric("add_p50_us", "add(int) round trip, p50", add.micros(50), "µs", null, null, add.micros(50) / tcp50));
    report.add(metric("add_p99_us", "add(int) round trip, p99", add.micros(99), "µs", null, null, null));
  }

  /**
   * {@code noop()} next to the TCP echo with the client, the job and the echo server pinned to one
   * CPU, then with the client on another CPU than the other two: a wake-up across CPUs costs a VM
   * tens of microseconds, the same for both, and the unpinned rows land on either placement as the
   * scheduler chooses, which is what swings them from run to run.
   */
  private void placements(BenchActor a) throws Exception {
    int cpus = Runtime.getRuntime().availableProcessors();
    String why = tcp.serverPid() < 0 ? "the echo server's process is not known" : CpuPinning.unavailable(cpus);
    if (why != null) {
      report.note("no rows on pinned CPUs: " + why);
      return;
    }
    long job = a.pid();
    int last = cpus - 1;
    try (CpuPinning pins = new CpuPinning(cpus)) {
      pins.pin(job, last);
      pins.pin(tcp.serverPid(), last);
      for (boolean oneCpu : new boolean[] {true, false}) {
        pins.pin(ProcessHandle.current().pid(), oneCpu ? last : 0);
        String key = oneCpu ? "_one_cpu" : "_two_cpus";
        String name = oneCpu ? ", client, job and echo server on one CPU" : ", client on another CPU than job and echo server";
        log.info("measuring noop and the 16-byte TCP echo{}", name);
        byte[] sixteen = new byte[16];
        Timed.repeatFor(() -> tcp.roundTrip(sixteen), plan.smallWarmup() / 2, plan.smallWarmupMs() / 2);
        Timed.repeatFor(a::noop, plan.smallWarmup() / 2, plan.smallWarmupMs() / 2);
        int n = plan.smallRounds() * plan.smallPerRound();
        Samples tcp16 = new Samples(n);
        Samples noop = new Samples(n);
        Timed.interleave(plan.smallRounds(), plan.smallPerRound(), () -> tcp.roundTrip(sixteen), tcp16, a::noop, noop);
        report.add(metric("tcp_16b_p50_us" + key, "plain TCP echo 16 B, p50 (baseline)" + name, tcp16.micros(50), "µs",
            null, null, null));
        report.add(metric("noop_p50_us" + key, "noop() round trip, p50" + name, noop.micros(50), "µs", null,
            Target.ratioAtMost(1.5, "<= 1.5x TCP"), noop.micros(50) / tcp16.micros(50)));
      }
    }
  }

  private void arrays(BenchActor a) throws Exception {
    log.info("measuring 1 MB and 8 MB float[] echo and plain TCP echo");
    arraySize(a, 1, plan.arrays1MbPerRound(), "1.80 ms", Target.atMost(0.9, "<= 0.9 ms"));
    arraySize(a, 8, plan.arrays8MbPerRound(), "16.9 ms", Target.atMost(8.4, "<= 8.4 ms"));
  }

  private void arraySize(BenchActor a, int mb, int perRound, String parl, Target target) throws Exception {
    float[] floats = new float[mb * MB / 4];
    for (int i = 0; i < floats.length; i++) {
      floats[i] = i;
    }
    byte[] bytes = new byte[mb * MB];
    Timed.Op echo = () -> {
      if (a.echo(floats).length != floats.length) {
        throw new IllegalStateException("the echo lost elements");
      }
    };
    Timed.repeatFor(() -> tcp.roundTrip(bytes), plan.arrayWarmup(), plan.arrayWarmupMs());
    Timed.repeatFor(echo, plan.arrayWarmup(), plan.arrayWarmupMs());
    Samples tcpS = new Samples(perRound * plan.arrayRounds());
    Samples parlS = new Samples(perRound * plan.arrayRounds());
    Timed.interleave(plan.arrayRounds(), perRound, () -> tcp.roundTrip(bytes), tcpS, echo, parlS);
    double base = tcpS.millis(50);
    report.add(metric("tcp_" + mb + "mb_p50_ms", "plain TCP echo " + mb + " MB, p50 (baseline)", base, "ms", null, null, null));
    report.add(metric("echo_" + mb + "mb_p50_ms", "float[] echo " + mb + " MB, p50", parlS.millis(50), "ms", parl,
        target, parlS.millis(50) / base));
  }

  /**
   * Calls per second with {@code n} actors, one thread each calling {@code noop()} in a loop, next
   * to {@code n} plain-TCP connections doing 16-byte round trips the same way: after a warm-up of
   * both, alternating blocks, so that both see the same background load and their ratio means
   * something on a shared machine.
   */
  private void throughput(int n, String key, String name, String parl, Target target) throws Exception {
    log.info("measuring calls/s with {} actor(s){}, and {} plain-TCP connection(s)", n, nameSuffix, n);
    List<BenchActor> proxies = new ArrayList<>();
    List<TcpEcho> echoes = new ArrayList<>();
    try {
      for (int i = 0; i < n; i++) {
        proxies.add(actors.get(i).proxy());
        echoes.add(tcp.another());
      }
      byte[] sixteen = new byte[16];
      Timed.Caller viaParl = i -> proxies.get(i).noop();
      Timed.Caller viaTcp = i -> echoes.get(i).roundTrip(sixteen);
      for (BenchActor p : proxies) {
        Timed.repeat(p::noop, plan.smallWarmup()); // the actors not used so far compile their call path first
      }
      Timed.countCalls(n, viaTcp, plan.throughputWarmupMs() / 2);
      Timed.countCalls(n, viaParl, plan.throughputWarmupMs());
      long blockMs = plan.throughputMs() / THROUGHPUT_BLOCKS;
      long tcpCalls = 0;
      long parlCalls = 0;
      for (int b = 0; b < THROUGHPUT_BLOCKS; b++) {
        tcpCalls += Timed.countCalls(n, viaTcp, blockMs);
        parlCalls += Timed.countCalls(n, viaParl, blockMs);
      }
      double seconds = THROUGHPUT_BLOCKS * blockMs / 1000.0;
      double tcpRate = tcpCalls / seconds;
      double parlRate = parlCalls / seconds;
      String connections = n + (n == 1 ? " connection" : " connections");
      report.add(metric("tcp_round_trips_per_s_" + n + "_conn", "plain TCP echo 16 B round trips/s, " + connections
          + " (baseline)", tcpRate, "1/s", null, null, null));
      report.add(metric(key, name, parlRate, "1/s", parl, target, parlRate / tcpRate));
    } finally {
      for (TcpEcho e : echoes) {
        e.close();
      }
    }
  }


  private void async(RemoteActor<BenchActor> a) throws Exception {
    log.info("measuring batches of 100 async calls");
    Timed.Op batch = () -> {
      List<Future<Integer>> calls = new ArrayList<>(100);
      for (int i = 0; i < 100; i++) {
        calls.add(a.call(x -> x.add(1)));
      }
      Future.all(calls).await();
    };
    Timed.repeat(batch, plan.asyncWarmup());
    Samples s = new Samples(plan.asyncBatches());
    Timed.record(batch, plan.asyncBatches(), s);
    report.add(new Metric("async_100_p50_ms", "100 async calls, issue all then await, p50", s.millis(50), "ms",
        "46 ms", Target.atMost(3, "<= 3 ms"), null));
  }
}
