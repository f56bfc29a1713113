package org.parl.internal.resources;

import java.util.List;
import org.parl.PlacementStrategy;

/**
 * What a placement group asks for: its bundles, each as one actor would ask, and where they go. Made
 * once where the group is stated and carried unchanged to the pool, like {@link ResourceRequest}.
 *
 * @param bundles the bundles, in the order the client numbers them (from 0)
 * @param strategy where they go
 * @throws IllegalArgumentException when there are no bundles, more than {@link #MAX_BUNDLES}, or no strategy
 */
public record GroupRequest(List<ResourceRequest> bundles, PlacementStrategy strategy) {

  /** Most bundles one group may have: far above any job a lab gangs, small enough to place in one step. */
  public static final int MAX_BUNDLES = 1024;

  public GroupRequest {
    if (bundles == null || bundles.isEmpty()) {
      throw new IllegalArgumentException("a placement group needs at least one bundle");
    }
    if (bundles.size() > MAX_BUNDLES) {
      throw new IllegalArgumentException("a placement group has at most " + MAX_BUNDLES + " bundles, not " + bundles.size());
    }
    if (strategy == null) {
      throw new IllegalArgumentException("a placement group needs a strategy: one of PACK, SPREAD, STRICT_PACK, STRICT_SPREAD");
    }
    bundles = List.copyOf(bundles);
  }

  public int size() {
    return bundles.size();
  }

  /** The group in words: "2 bundles, STRICT_SPREAD: 1 GPU and 1 CPU; 1 GPU and 1 CPU". */
  @Override
  public String toString() {
    StringBuilder s = new StringBuilder().append(size()).append(size() == 1 ? " bundle, " : " bundles, ").append(strategy)
        .append(": ");
    int shown = Math.min(size(), 8);
    for (int i = 0; i < shown; i++) {
      s.append(i == 0 ? "" : "; ").append(bundles.get(i));
    }
    return size() > shown ? s.append("; ...").toString() : s.toString();
  }
}
