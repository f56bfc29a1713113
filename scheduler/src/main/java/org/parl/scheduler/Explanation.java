package org.parl.scheduler;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.parl.internal.resources.ResourceRequest;

/**
 * Per worker, the constraint that stops a request, with alike workers grouped under one line
 * ("w-3, w-4 and 997 more: 1 of 2 GPUs vacant"), closest to fitting first.
 *
 * @param lines at most the number of lines asked for
 * @param nearest the class of the closest constraint that does not last for good (what the request waits
 *     for), or {@link Stop#CAPACITY} when every worker is too small
 */
record Explanation(List<String> lines, Stop nearest) {

  /** Workers that share one constraint text. */
  private static final class Group {
    final Constraint constraint;
    final List<String> names = new ArrayList<>(2);
    final int order;
    int count;

    Group(Constraint constraint, int order) {
      this.constraint = constraint;
      this.order = order;
    }

    String line() {
      String who = count == 1 ? names.get(0)
          : count == 2 ? names.get(0) + " and " + names.get(1)
          : names.get(0) + ", " + names.get(1) + " and " + (count - 2) + " more";
      return who + ": " + constraint.text();
    }
  }

  /**
   * One pass over the workers; the cost is a constraint per worker and a few lines.
   *
   * @throws IllegalArgumentException if {@code maxLines} is below 1
   */
  static Explanation of(Iterable<PoolWorker> workers, ResourceRequest r, int maxLines) {
    if (maxLines < 1) {
      throw new IllegalArgumentException("an explanation needs at least one line, not " + maxLines);
    }
    Map<String, Group> groups = new LinkedHashMap<>();
    Stop nearest = Stop.CAPACITY;
    for (PoolWorker w : workers) {
      Constraint c = Constraint.of(w, r);
      if (!c.lasting() && c.kind().compareTo(nearest) < 0) {
        nearest = c.kind();
      }
      Group g = groups.computeIfAbsent(c.text(), t -> new Group(c, groups.size()));
      if (g.names.size() < 2) {
        g.names.add(w.id);
      }
      g.count++;
    }
    List<Group> sorted = new ArrayList<>(groups.values());
    sorted.sort(Comparator.<Group>comparingInt(g -> g.constraint.lasting() ? 1 : 0)
        .thenComparing(g -> g.constraint.kind())
        .thenComparing(g -> -g.count)
        .thenComparingInt(g -> g.order));
    List<String> lines = new ArrayList<>(Math.min(maxLines, sorted.size()));
    if (sorted.isEmpty()) {
      lines.add("no worker is in the pool");
      return new Explanation(lines, nearest);
    }
    // With room for one line only, the closest group alone says more than a count of the rest.
    int shown = sorted.size() <= maxLines ? sorted.size() : Math.max(1, maxLines - 1);
    for (int i = 0; i < shown; i++) {
      lines.add(sorted.get(i).line());
    }
    if (shown < sorted.size() && lines.size() < maxLines) {
      int rest = 0;
      for (int i = shown; i < sorted.size(); i++) {
        rest += sorted.get(i).count;
      }
      lines.add(rest + " more " + Texts.plural(rest, "worker") + " stopped by other constraints");
    }
    return new Explanation(List.copyOf(lines), nearest);
  }
}
