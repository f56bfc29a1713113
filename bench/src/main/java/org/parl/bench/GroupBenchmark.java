package org.parl.bench;

import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import org.parl.Bundle;
import org.parl.ParlClient;
import org.parl.PlacementGroup;
import org.parl.PlacementStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Placement groups on the GPU cluster with fake GPUs (one worker): the reservation of a group of one
 * 1-GPU bundle per GPU, PACK (from {@code createGroupAsync} until its future completes, the group
 * removed after each, with the worker's warm pool idle), against a warm 1-GPU actor create of the same
 * run; and sequential reserve+remove cycles of a 2-bundle group, each cycle one op (reserved, then
 * removed until the master answered), as ops/s over a fixed number of cycles, the median of a few
 * batches. A group without actors starts no job, so neither part waits for JVMs.
 */
final class GroupBenchmark {

  private static final Logger log = LoggerFactory.getLogger(GroupBenchmark.class);
  private static final int SMALL_BUNDLES = 2;

  private final BenchPlan plan;
  private final ParlClient parl;
  private final JobPool pool;
  private final int gpus;
  private final Report report;

  /** @param gpus the worker's GPUs: the reserved group has one 1-GPU bundle on each */
  GroupBenchmark(BenchPlan plan, ParlClient parl, JobPool pool, int gpus, Report report) {
    this.plan = plan;
    this.parl = parl;
    this.pool = pool;
    this.gpus = gpus;
    this.report = report;
  }

  /** Reserves {@code bundles} 1-GPU bundles, PACK, and checks that each holds one GPU of its own. */
  private PlacementGroup reserve(int bundles) {
    PlacementGroup g = parl.createGroupAsync(PlacementStrategy.PACK, Collections.nCopies(bundles, Bundle.gpus(1))).await();
    Set<Integer> held = new HashSet<>();
    for (int i = 0; i < g.size(); i++) {
      held.addAll(g.gpusOf(i));
    }
    if (g.size() != bundles || held.size() != bundles) {
      g.removeAsync().await();
      throw new IllegalStateException("a group of " + bundles + " 1-GPU bundles was given " + g.size() + " bundles on GPUs " + held);
    }
    return g;
  }

  void run() throws Exception {
    pool.awaitIdle(gpus);
    log.info("{} unmeasured reserve+remove cycles, then measuring the reservation of a {}-bundle group ({} rounds)",
        plan.groupWarmupCycles(), gpus, plan.groupReserveRounds());
    for (int i = 0; i < plan.groupWarmupCycles(); i++) {
      reserve(i % 2 == 0 ? gpus : SMALL_BUNDLES).removeAsync().await();
    }
    reservation();
    cycles();
  }

  private void reservation() throws Exception {
    Samples s = new Samples(plan.groupReserveRounds());
    for (int r = 0; r < plan.groupReserveRounds(); r++) {
      pool.awaitIdle(gpus);
      long t0 = System.nanoTime();
      PlacementGroup g = reserve(gpus);
      s.add(System.nanoTime() - t0);
      g.removeAsync().await();
    }
    double p50 = s.millis(50);
    report.add(new Metric("group" + gpus + "_reserve_p50_ms", "placement group of " + gpus + " x 1 GPU, PACK, reserve, p50 (fake GPUs)",
        p50, "ms", null, Target.ratioAtMost(2, "<= 2x GPU create"), vsCreate(p50)));
  }

  private void cycles() throws Exception {
    log.info("measuring sequential reserve+remove of a {}-bundle group ({} batches of {})", SMALL_BUNDLES, plan.groupBatches(),
        plan.groupCycles());
    pool.awaitIdle(gpus);
    Samples batches = new Samples(plan.groupBatches());
    for (int b = 0; b < plan.groupBatches(); b++) {
      long t0 = System.nanoTime();
      for (int i = 0; i < plan.groupCycles(); i++) {
        reserve(SMALL_BUNDLES).removeAsync().await();
      }
      batches.add(System.nanoTime() - t0);
    }
    double perSecond = plan.groupCycles() / (batches.percentile(50) / 1e9);
    report.add(new Metric("group_reserve_remove_per_s", "placement group of " + SMALL_BUNDLES + " x 1 GPU, reserve+remove/s,"
        + " sequential, median of " + plan.groupBatches() + " x " + plan.groupCycles(), perSecond, "1/s", null,
        Target.atLeast(100, ">= 100/s"), null));
  }

  /** The ratio to the warm 1-GPU actor create that {@link GpuCreateBenchmark} measured in this run; null without it. */
  private Double vsCreate(double ms) {
    Double create = report.value("gpu_create_warm_p50_ms");
    return create == null || create <= 0 ? null : ms / create;
  }
}
