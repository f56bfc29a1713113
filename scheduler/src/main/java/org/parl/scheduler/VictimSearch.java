package org.parl.scheduler;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.parl.internal.resources.Allocation;
import org.parl.internal.resources.ResourceRequest;

/**
 * Which running jobs to preempt so that a waiting request fits: on one worker, only jobs of lower priority
 * than the request's, the fewest of them, then those of the lowest priority, each worker's candidates
 * taken lowest priority first and, among equals, youngest first. Found by trying: the candidates are
 * released one at a time until the request fits on the worker, then every one of them is held again, so
 * that the pool is exactly as before. Costs one pass over the workers and their candidates.
 */
final class VictimSearch {

  /** The jobs to preempt on {@code workerId}: once they have ended, the request fits there. */
  record Victims(String workerId, List<String> jobIds, int highestPriority) {}

  private VictimSearch() {}

  /**
   * @param claimed jobs already being preempted for other requests: not counted twice
   * @param blocked workers reserved for requests ahead: not searched
   */
  static Optional<Victims> find(ResourcePool pool, ResourceRequest r, int priority, Preemptible jobs, Set<String> claimed,
      Predicate<String> blocked) {
    Comparator<Allocation> order = Comparator.<Allocation>comparingInt(a -> jobs.priorityOf(a.jobId()))
        .thenComparing(Comparator.<Allocation>comparingLong(a -> jobs.startOrder(a.jobId())).reversed());
    Victims best = null;
    for (PoolWorker w : pool.workerList()) {
      if (w.drained || blocked.test(w.id) || w.cpusTotal < r.cpus()) {
        continue;
      }
      List<Allocation> candidates = new ArrayList<>();
      for (Allocation a : w.jobs.values()) {
        int p = jobs.priorityOf(a.jobId());
        if (p >= 0 && p < priority && !claimed.contains(a.jobId())) {
          candidates.add(a);
        }
      }
      if (candidates.isEmpty()) {
        continue;
      }
      candidates.sort(order);
      Victims found = tryOn(pool, w.id, r, candidates, best == null ? Integer.MAX_VALUE : best.jobIds().size(), jobs);
      if (found != null && (best == null || better(found, best))) {
        best = found;
      }
    }
    return Optional.ofNullable(best);
  }

  private static boolean better(Victims a, Victims b) {
    return a.jobIds().size() != b.jobIds().size() ? a.jobIds().size() < b.jobIds().size()
        : a.highestPriority() < b.highestPriority();
  }

  /** Releases candidates in order until {@code r} fits on the worker (at most {@code limit}), then holds them all again. */
  private static Victims tryOn(ResourcePool pool, String workerId, ResourceRequest r, List<Allocation> candidates, int limit,
      Preemptible jobs) {
    Predicate<String> elsewhere = id -> !id.equals(workerId);
    List<Allocation> released = new ArrayList<>();
    boolean fits = false;
    try {
      for (Allocation a : candidates) {
        if (released.size() >= limit) {
          break;
        }
        pool.release(a.jobId());
        released.add(a);
        if (pool.find(r, elsewhere) != null) {
          fits = true;
          break;
        }
      }
    } finally {
      released.forEach(pool::adopt);
    }
    if (!fits) {
      return null;
    }
    List<String> ids = released.stream().map(Allocation::jobId).toList();
    int highest = released.stream().mapToInt(a -> jobs.priorityOf(a.jobId())).max().orElse(0);
    return new Victims(workerId, ids, highest);
  }
}
