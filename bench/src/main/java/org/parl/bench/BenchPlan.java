package org.parl.bench;

/**
 * How many iterations each part of the benchmark runs: the default aims at stable medians, {@code
 * --quick} at a shorter run (about 3 minutes on 2 cores with the GPU and cross-host rows).
 * {@code warmupCreates} creates run before the measured ones, then {@code warmupCycles} create+close
 * cycles at full speed: a cluster that has run for a while, and a client that has created actors
 * before, have compiled their create paths (the median warm create of a new cluster and a new
 * client keeps falling over its first few hundred creates, see docs/benchmarks-history.md).
 * The warm and back-to-back medians take 25 creates or more: single creates on 2 cores spread by
 * 2-3x, and a median of the 5-8 that {@code --quick} took before moved by as much between two runs
 * of the same build as the create path's changes did.
 * GPU creates likewise run {@code gpuWarmupRounds} unmeasured rounds (one actor per GPU) on their
 * new cluster first.
 * Placement groups run {@code groupWarmupCycles} unmeasured reserve+remove cycles first, then
 * {@code groupReserveRounds} timed reservations, then {@code groupBatches} timed batches of
 * {@code groupCycles} reserve+remove cycles.
 * Small round trips warm up for at least {@code smallWarmupMs} besides {@code smallWarmup} calls: on a
 * new job the sealed data path's crypto is still interpreted for the first few thousand calls, and
 * a count of calls alone can end before the JIT has caught up.
 * Array echoes warm up for {@code arrayWarmupMs} per size as well: a new actor's array echoes keep
 * getting faster over their first hundreds of calls, as both JVMs compile the copy paths and the
 * client's heap settles.
 */
record BenchPlan(
    String mode,
    int smallWarmup,
    long smallWarmupMs,
    int smallRounds,
    int smallPerRound,
    int addCalls,
    int arrayWarmup,
    long arrayWarmupMs,
    int arrays1MbPerRound,
    int arrays8MbPerRound,
    int arrayRounds,
    long throughputWarmupMs,
    long throughputMs,
    int asyncWarmup,
    int asyncBatches,
    int warmupCreates,
    int warmupCycles,
    int warmCreates,
    int backToBackCycles,
    int probes,
    int gpuWarmupRounds,
    int gpuWarmRounds,
    int gpuColdCreates,
    int groupWarmupCycles,
    int groupReserveRounds,
    int groupCycles,
    int groupBatches) {

  /** The plan of a {@code --quick} run, or the standard one. */
  static BenchPlan of(boolean quick) {
    return quick ? quick() : standard();
  }

  static BenchPlan standard() {
    return new BenchPlan("default", 8_000, 3_000, 8, 2_500, 10_000, 25, 3_000, 10, 3, 5, 1_000, 3_000, 30, 100, 100, 400, 60, 60, 4,
        10, 3, 5, 300, 40, 100, 5);
  }

  static BenchPlan quick() {
    return new BenchPlan("quick", 4_000, 1_500, 4, 1_500, 3_000, 12, 1_000, 5, 2, 3, 500, 1_500, 15, 40, 40, 200, 25, 25, 2, 3, 1, 2,
        100, 15, 50, 3);
  }
}
