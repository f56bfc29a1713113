package org.parl.bench;

import java.util.ArrayList;
import java.util.List;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * 1-GPU actor creation on a GPU cluster with fake GPUs: from the worker's warm per-GPU job
 * processes (one idle JVM per vacant GPU, so four creates in a row all find one), and cold, where
 * {@code maxMemoryMb} makes the worker start a fresh JVM with a heap limit for the actor.
 */
final class GpuCreateBenchmark {

  private static final Logger log = LoggerFactory.getLogger(GpuCreateBenchmark.class);
  private static final int COLD_MEMORY_MB = 256;

  private final BenchPlan plan;
  private final ParlClient parl;
  private final JobPool pool;
  private final int gpus;
  private final Report report;

  GpuCreateBenchmark(BenchPlan plan, ParlClient parl, JobPool pool, int gpus, Report report) {
    this.plan = plan;
    this.parl = parl;
    this.pool = pool;
    this.gpus = gpus;
    this.report = report;
  }

  private RemoteActor<BenchActor> create(int memoryMb) {
    RemoteActor<BenchActor> a = parl.actor(BenchActor.class, BenchActorImpl.class).gpus(1).maxMemoryMb(memoryMb)
        .createAsync().await();
    if (a.gpus().size() != 1) {
      a.close();
      throw new IllegalStateException("a 1-GPU actor was given GPUs " + a.gpus());
    }
    return a;
  }

  void run() throws Exception {
    pool.awaitIdle(gpus);
    create(0).close();
    warm();
    cold();
  }

  private void warm() throws Exception {
    log.info("{} unmeasured rounds, then measuring GPU actor creation from warm per-GPU jobs ({} round(s) of {})",
        plan.gpuWarmupRounds(), plan.gpuWarmRounds(), gpus);
    for (int r = 0; r < plan.gpuWarmupRounds(); r++) {
      warmRound(null);
    }
    Samples s = new Samples(plan.gpuWarmRounds() * gpus);
    for (int r = 0; r < plan.gpuWarmRounds(); r++) {
      warmRound(s);
    }
    report.add(new Metric("gpu_create_warm_p50_ms", "GPU actor create, warm per-GPU job, p50 (fake GPUs)", s.millis(50), "ms",
        null, Target.atMost(10, "<= 10 ms"), vsBaseline(s.millis(50), "tcp_connect_p50_ms")));
  }

  /** One actor per GPU, each from its warm job, then all closed; the creates' times go to {@code into} unless null. */
  private void warmRound(Samples into) throws Exception {
    pool.awaitIdle(gpus);
    List<RemoteActor<BenchActor>> held = new ArrayList<>();
    try {
      for (int g = 0; g < gpus; g++) {
        long t0 = System.nanoTime();
        held.add(create(0));
        if (into != null) {
          into.add(System.nanoTime() - t0);
        }
      }
    } finally {
      held.forEach(RemoteActor::close);
    }
  }

  private void cold() throws Exception {
    log.info("measuring cold GPU actor creation ({} creates, each starting a job JVM)", plan.gpuColdCreates());
    Samples s = new Samples(plan.gpuColdCreates());
    for (int i = 0; i < plan.gpuColdCreates(); i++) {
      pool.awaitIdle(gpus);
      long t0 = System.nanoTime();
      RemoteActor<BenchActor> a = create(COLD_MEMORY_MB);
      s.add(System.nanoTime() - t0);
      a.close();
    }
    report.add(new Metric("gpu_create_cold_p50_ms", "GPU actor create, cold JVM start, p50 (fake GPUs)", s.millis(50), "ms",
        null, Target.atMost(600, "<= 600 ms"), vsBaseline(s.millis(50), "tcp_program_p50_ms")));
  }

  /**
   * The ratio to a plain baseline the CPU part measured in this same run: a new TCP connection with
   * one round trip for a warm create, a fresh JVM's first TCP echo for a cold one; null without it.
   */
  private Double vsBaseline(double value, String baselineKey) {
    Double base = report.value(baselineKey);
    return base == null || base <= 0 ? null : value / base;
  }
}
