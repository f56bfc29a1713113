package org.parl.bench;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.parl.RemoteActor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data path: round trips of small calls and of arrays through blocking proxies, throughput
 * with one and several actors, and pipelined async calls, each measured next to the plain-TCP
 * baseline where one applies. On a cluster started with {@code --encrypt-data}, {@link #runEncrypted}
 * measures the same small round trips, 1 MB arrays and throughput, as rows marked TLS.
 */
final class CallBenchmark {

  private static final Logger log = LoggerFactory.getLogger(CallBenchmark.class);
  static final int MB = 1 << 20;

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
    small(one, Target.atMostAndRatio(75, 1.5, "<= 75 µs, <= 1.5x TCP"));
    arrays(one);
    throughput(1, "calls_per_s_1_actor", "calls/s, 1 actor, blocking", null, null);
    throughput(actors.size(), "calls_per_s_4_actors", "calls/s, " + actors.size() + " actors, 1 thread each",
        "12 700", Target.atLeast(40_000, ">= 40 000"));
    async(actors.get(0));
  }

  /** The rows that show what {@code --encrypt-data} costs, keyed {@code ..._tls}; no targets. */
  void runEncrypted() throws Exception {
    keySuffix = "_tls";
    nameSuffix = ", TLS";
    BenchActor one = actors.get(0).proxy();
    small(one, null);
    log.info("measuring 1 MB float[] echo with TLS and plain TCP echo");
    arraySize(one, 1, plan.arrays1MbPerRound(), null, null);
    throughput(1, "calls_per_s_1_actor", "calls/s, 1 actor, blocking", null, null);
    throughput(actors.size(), "calls_per_s_4_actors", "calls/s, " + actors.size() + " actors, 1 thread each", null, null);
  }

  private Metric metric(String key, String name, double value, String unit, String parl, Target target, Double vsTcp) {
    return new Metric(key + keySuffix, name + nameSuffix, value, unit, parl, target, vsTcp);
  }

  private void small(BenchActor a, Target noopTarget) throws Exception {
    log.info("measuring small round trips (noop, add, 16-byte TCP echo){}", nameSuffix);
    byte[] sixteen = new byte[16];
    Timed.repeat(() -> tcp.roundTrip(sixteen), plan.smallWarmup());
    Timed.repeat(a::noop, plan.smallWarmup());
    Timed.repeat(() -> a.add(1), plan.smallWarmup() / 2);
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
    report.add(metric("noop_p50_us", "noop() round trip, p50", noop.micros(50), "µs", noopTarget == null ? null : "150 µs",
        noopTarget, noop.micros(50) / tcp50));
    report.add(metric("noop_p99_us", "noop() round trip, p99", noop.micros(99), "µs", null, null, noop.micros(99) / tcp99));
    report.add(metric("add_p50_us", "add(int) round trip, p50", add.micros(50), "µs", null, null, add.micros(50) / tcp50));
    report.add(metric("add_p99_us", "add(int) round trip, p99", add.micros(99), "µs", null, null, null));
  }

  private void arrays(BenchActor a) throws Exception {
    log.info("measuring 1 MB and 8 MB float[] echo and plain TCP echo");
    arraySize(a, 1, plan.arrays1MbPerRound(), "1.16 ms", Target.atMost(0.8, "<= 0.8 ms"));
    arraySize(a, 8, plan.arrays8MbPerRound(), "11.6 ms", Target.atMost(6, "<= 6 ms"));
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
    Timed.repeat(() -> tcp.roundTrip(bytes), plan.arrayWarmup());
    Timed.repeat(echo, plan.arrayWarmup());
    Samples tcpS = new Samples(perRound * plan.arrayRounds());
    Samples parlS = new Samples(perRound * plan.arrayRounds());
    Timed.interleave(plan.arrayRounds(), perRound, () -> tcp.roundTrip(bytes), tcpS, echo, parlS);
    double base = tcpS.millis(50);
    report.add(metric("tcp_" + mb + "mb_p50_ms", "plain TCP echo " + mb + " MB, p50 (baseline)", base, "ms", null, null, null));
    report.add(metric("echo_" + mb + "mb_p50_ms", "float[] echo " + mb + " MB, p50", parlS.millis(50), "ms", parl,
        target, parlS.millis(50) / base));
  }

  private void throughput(int n, String key, String name, String parl, Target target) throws Exception {
    log.info("measuring calls/s with {} actor(s){}", n, nameSuffix);
    long start = System.nanoTime();
    long measureFrom = start + plan.throughputWarmupMs() * 1_000_000;
    long measureTo = measureFrom + plan.throughputMs() * 1_000_000;
    AtomicLong counted = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch done = new CountDownLatch(n);
    for (int i = 0; i < n; i++) {
      BenchActor a = actors.get(i).proxy();
      Thread t = new Thread(() -> {
        try {
          long mine = 0;
          while (true) {
            a.noop();
            long now = System.nanoTime();
            if (now >= measureTo) {
              break;
            }
            if (now >= measureFrom) {
              mine++;
            }
          }
          counted.addAndGet(mine);
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        } finally {
          done.countDown();
        }
      }, "bench-caller-" + i);
      t.setDaemon(true);
      t.start();
    }
    done.await();
    if (failure.get() != null) {
      throw new IllegalStateException("a caller failed: " + failure.get(), failure.get());
    }
    report.add(metric(key, name, counted.get() * 1000.0 / plan.throughputMs(), "1/s", parl, target, null));
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
        "29 ms", Target.atMost(3, "<= 3 ms"), null));
  }
}
