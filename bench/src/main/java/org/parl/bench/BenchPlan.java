package org.parl.bench;

/**
 * How many iterations each part of the benchmark runs: the default aims at stable medians within
 * about 3 minutes on 2 cores, {@code --quick} at about 1 minute. {@code warmupCreates} creates run
 * before the measured ones: a cluster that has run for a while has compiled its create path (on this
 * machine the median create falls by about half over the first hundred creates of a new cluster).
 */
record BenchPlan(
    String mode,
    int smallWarmup,
    int smallRounds,
    int smallPerRound,
    int addCalls,
    int arrayWarmup,
    int arrays1MbPerRound,
    int arrays8MbPerRound,
    int arrayRounds,
    long throughputWarmupMs,
    long throughputMs,
    int asyncWarmup,
    int asyncBatches,
    int warmupCreates,
    int warmCreates,
    int backToBackCycles,
    int probes,
    int gpuWarmRounds,
    int gpuColdCreates) {

  static BenchPlan standard() {
    return new BenchPlan("default", 8_000, 8, 2_500, 10_000, 25, 10, 3, 5, 1_000, 3_000, 30, 100, 100, 15, 20, 4, 3, 5);
  }

  static BenchPlan quick() {
    return new BenchPlan("quick", 4_000, 4, 1_500, 3_000, 12, 5, 2, 3, 500, 1_500, 15, 40, 40, 5, 8, 2, 1, 2);
  }
}
