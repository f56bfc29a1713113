package org.parl.scheduler;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.TreeMap;

/**
 * Workers grouped by how many units of one resource they have vacant, so that a best-fit search
 * looks at the smallest sufficient vacancy first instead of scanning every worker.
 *
 * <p>Buckets keep insertion order, which makes placement deterministic; empty buckets are dropped
 * so a search visits only vacancies that exist (at most a handful for GPUs).
 */
final class VacancyIndex<W> {

  private final TreeMap<Integer, LinkedHashSet<W>> buckets = new TreeMap<>();

  void add(W worker, int vacancy) {
    buckets.computeIfAbsent(vacancy, v -> new LinkedHashSet<>()).add(worker);
  }

  void remove(W worker, int vacancy) {
    LinkedHashSet<W> bucket = buckets.get(vacancy);
    if (bucket == null || !bucket.remove(worker)) {
      throw new IllegalStateException("worker " + worker + " is not indexed at vacancy " + vacancy);
    }
    if (bucket.isEmpty()) {
      buckets.remove(vacancy);
    }
  }

  void move(W worker, int from, int to) {
    if (from != to) {
      remove(worker, from);
      add(worker, to);
    }
  }

  /** Iterates buckets from the smallest vacancy that is at least {@code need}. */
  Iterable<Map.Entry<Integer, LinkedHashSet<W>>> atLeast(int need) {
    return buckets.tailMap(need, true).entrySet();
  }

  boolean contains(W worker, int vacancy) {
    LinkedHashSet<W> bucket = buckets.get(vacancy);
    return bucket != null && bucket.contains(worker);
  }

  int size() {
    int n = 0;
    for (LinkedHashSet<W> bucket : buckets.values()) {
      n += bucket.size();
    }
    return n;
  }
}
