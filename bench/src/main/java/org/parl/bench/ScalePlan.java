package org.parl.bench;

import java.util.List;

/**
 * How {@code parl bench --scale} runs: the worker counts it measures at, how many gateway
 * connections allocate and release at once, and for how long, or for exactly how many allocations.
 *
 * @param workers the simulated worker counts, in increasing order
 * @param connections client connections to the gateway, each with one allocation at a time
 * @param cpusEach the CPUs each simulated worker lends (enough that no request waits)
 * @param warmupMs time spent allocating before measuring, at each worker count
 * @param measureMs time measured at each worker count
 * @param allocations when positive, exactly this many allocations at each worker count (no warm-up,
 *     no time limit) instead of a timed run
 */
public record ScalePlan(List<Integer> workers, int connections, int cpusEach, long warmupMs, long measureMs, int allocations) {

  public ScalePlan {
    workers = List.copyOf(workers);
    for (int i = 0; i < workers.size(); i++) {
      if (workers.get(i) < 1 || (i > 0 && workers.get(i) <= workers.get(i - 1))) {
        throw new IllegalArgumentException("worker counts must be positive and increasing, not " + workers);
      }
    }
    if (connections < 1) {
      throw new IllegalArgumentException("at least one connection is needed, not " + connections);
    }
  }

  /** 10, 100 and 1 000 workers, 16 connections, 3 s of warm-up and 10 s measured at each. */
  static ScalePlan standard() {
    return new ScalePlan(List.of(10, 100, 1_000), 16, 8, 3_000, 10_000, 0);
  }
}
