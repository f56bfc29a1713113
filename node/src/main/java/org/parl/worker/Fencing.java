package org.parl.worker;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * How a worker on a node of its own reacts when its master leaves the cluster (docs/contract.md §7, fencing; see
 * {@link Fence}). A worker inside the master's process has none: it ends with its master.
 *
 * @param limit how long the worker keeps its jobs after it lost a master it cannot reach
 * @param stop ends the worker process; given the sentence that says why
 */
public record Fencing(Duration limit, Consumer<String> stop) {

  /** The default {@link #limit}: longer than a standby's takeover (5 s). */
  public static final Duration DEFAULT_LIMIT = Duration.ofSeconds(10);

  public Fencing {
    if (limit.isNegative() || limit.isZero()) {
      throw new IllegalArgumentException("the fencing limit must be positive, not " + limit);
    }
  }
}
