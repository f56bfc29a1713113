package org.parl.bench;

import java.util.ArrayList;
import java.util.List;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * CPU actor creation: "warm" (one create with the worker's warm pool full and idle), and
 * back-to-back create+close cycles in a full cluster, where every create needs the CPU the
 * previous close gave back (PARL's slow case: it polls once a second for a free CPU).
 */
final class CreateBenchmark {

  private static final Logger log = LoggerFactory.getLogger(CreateBenchmark.class);
  /** A create slower than this did not find a ready warm process. */
  static final long COLD_NANOS = 100_000_000;

  private final BenchPlan plan;
  private final ParlClient parl;
  private final JobPool pool;
  private final int warmJobs;
  private final int hold;
  private final Report report;
  private final TcpEcho tcp;
  /** The baseline's median, measured alongside the warm creates. */
  private double tcpConnectMs;

  /**
   * @param warmJobs warm job processes the worker keeps (4 on the benchmark's own cluster)
   * @param hold actors to keep while cycling, so that each create needs the CPU just freed
   * @param tcp the plain-TCP baseline: a new connection to its server and one round trip, after each measured create
   */
  CreateBenchmark(BenchPlan plan, ParlClient parl, JobPool pool, int warmJobs, int hold, Report report, TcpEcho tcp) {
    this.plan = plan;
    this.parl = parl;
    this.pool = pool;
    this.warmJobs = warmJobs;
    this.hold = hold;
    this.report = report;
    this.tcp = tcp;
  }

  /** The baseline of a create: a new plain-TCP connection and one 16-byte round trip, in nanoseconds. */
  private long tcpConnect() throws Exception {
    long t0 = System.nanoTime();
    try (TcpEcho c = tcp.another()) {
      c.roundTrip(new byte[16]);
    }
    return System.nanoTime() - t0;
  }

  private RemoteActor<BenchActor> create() {
    return parl.actor(BenchActor.class, BenchActorImpl.class).createAsync().await();
  }

  void run() throws Exception {
    warm();
    backToBack();
  }

  private void warm() throws Exception {
    log.info("{} warm-up creates, then measuring warm actor creation ({} creates, each with the warm pool full and idle)",
        plan.warmupCreates(), plan.warmCreates());
    Samples warmup = new Samples(plan.warmupCreates());
    for (int i = 0; i < plan.warmupCreates(); i++) {
      pool.awaitIdle(warmJobs);
      long t0 = System.nanoTime();
      RemoteActor<BenchActor> a = create();
      warmup.add(System.nanoTime() - t0);
      a.proxy().noop();
      a.close();
    }
    report.add(new Metric("create_first_p50_ms", "actor create, the first " + plan.warmupCreates() + " of the cluster, p50",
        warmup.millis(50), "ms", null, null, null));
    log.info("{} create+close cycles at full speed, so that the cluster and this client have compiled their create paths",
        plan.warmupCycles());
    for (int i = 0; i < plan.warmupCycles(); i++) {
      create().close();
    }
    Samples creates = new Samples(plan.warmCreates());
    Samples closes = new Samples(plan.warmCreates());
    Samples connects = new Samples(plan.warmCreates());
    for (int i = 0; i < plan.warmCreates(); i++) {
      pool.awaitIdle(warmJobs);
      long t0 = System.nanoTime();
      RemoteActor<BenchActor> a = create();
      long t1 = System.nanoTime();
      a.proxy().noop();
      long t2 = System.nanoTime();
      a.close();
      creates.add(t1 - t0);
      closes.add(System.nanoTime() - t2);
      connects.add(tcpConnect());
    }
    tcpConnectMs = connects.millis(50);
    report.add(new Metric("tcp_connect_p50_ms", "plain TCP baseline: new connection and one 16 B round trip, p50",
        tcpConnectMs, "ms", null, null, null));
    report.add(new Metric("create_warm_p50_ms", "actor create, warm pool ready, p50", creates.millis(50), "ms", "14.9 ms",
        Target.atMost(7, "<= 7 ms"), creates.millis(50) / tcpConnectMs));
    report.add(new Metric("create_warm_p90_ms", "actor create, warm pool ready, p90", creates.millis(90), "ms", null, null, null));
    report.add(new Metric("close_p50_ms", "actor close (until its CPU is back), p50", closes.millis(50), "ms", null, null, null));
  }

  private void backToBack() throws Exception {
    log.info("measuring {} back-to-back create+close cycles{}", plan.backToBackCycles(),
        hold > 0 ? " with " + hold + " other actors holding the rest of the CPUs" : "");
    List<RemoteActor<BenchActor>> held = new ArrayList<>();
    try {
      for (int i = 0; i < hold; i++) {
        held.add(create());
      }
      pool.awaitIdle(warmJobs + hold);
      Samples creates = new Samples(plan.backToBackCycles());
      Samples cycles = new Samples(plan.backToBackCycles());
      for (int i = 0; i < plan.backToBackCycles(); i++) {
        long t0 = System.nanoTime();
        RemoteActor<BenchActor> a = create();
        long t1 = System.nanoTime();
        a.close();
        creates.add(t1 - t0);
        cycles.add(System.nanoTime() - t0);
      }
      report.add(new Metric("create_b2b_p50_ms", "create in back-to-back create+close, p50", creates.millis(50), "ms",
          "22.5 ms", Target.atMost(11, "<= 11 ms"), creates.millis(50) / tcpConnectMs));
      report.add(new Metric("create_b2b_p90_ms", "create in back-to-back create+close, p90", creates.millis(90), "ms",
          "1 024 ms", Target.atMost(30, "<= 30 ms"), creates.millis(90) / tcpConnectMs));
      report.add(new Metric("create_close_cycle_p50_ms", "back-to-back create+close cycle, p50", cycles.millis(50), "ms",
          null, null, null));
      report.add(new Metric("create_b2b_cold_count", "back-to-back creates over 100 ms (no warm job ready)",
          creates.over(COLD_NANOS), "of " + creates.count(), null, null, null));
    } finally {
      held.forEach(RemoteActor::close);
    }
  }
}
