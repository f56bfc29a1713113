package org.parl.worker.gpu;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.parl.control.JobCenterRequest.GpuCondition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a worker's fresh inventory readings into the GPU health it reports to the JobCenter (docs/contract.md
 * §11): each lent GPU's health as nvidia-smi read it, and, where the inventory changed under the
 * worker since it registered ({@link InventoryChange}), the GPUs affected reported faulty with
 * {@code inventory changed: ...} (quarantined, never remapped silently). A report is due only when a
 * GPU's condition differs from what the JobCenter was last told (at registration: all healthy).
 * Stale or failed readings say nothing about the GPUs and are skipped. Not thread-safe: the worker's
 * event loop only.
 */
public final class GpuHealthWatch {

  private static final Logger log = LoggerFactory.getLogger(GpuHealthWatch.class);

  private final String workerId;
  /** The ids the worker lends. */
  private final List<Integer> lent;
  /** The units the worker registered with (those its inventory described), for {@link InventoryChange}. */
  private final List<GpuDevice> registeredUnits;
  /** The registered UUID of each lent unit, by index. */
  private final Map<Integer, String> uuids = new HashMap<>();
  /** What the JobCenter was last told, by index; a GPU not in it is taken as healthy. */
  private Map<Integer, GpuCondition> told = Map.of();
  /** The last inventory change logged, so that it is logged once. */
  private String changeLogged = "";

  /**
   * @param workerId the worker, for its log lines
   * @param lent the GPU ids it lends
   * @param registered the units it registered with, as its inventory described them when it started
   */
  public GpuHealthWatch(String workerId, List<Integer> lent, List<GpuDevice> registered) {
    this.workerId = workerId;
    this.lent = List.copyOf(lent);
    this.registeredUnits = List.copyOf(registered);
    registered.forEach(d -> uuids.put(d.index(), d.uuid()));
  }

  /** The conditions to report for this reading, when any lent GPU's condition changed; else empty. */
  public Optional<List<GpuCondition>> next(GpuInventory.Reading reading) {
    if (reading.problem().isPresent() || reading.stale() || lent.isEmpty()) {
      return Optional.empty();
    }
    Map<Integer, List<String>> faults = new LinkedHashMap<>();
    for (GpuDevice d : reading.devices()) {
      if (lent.contains(d.index()) && !d.health().healthy()) {
        faults.computeIfAbsent(d.index(), i -> new ArrayList<>())
            .add(d.health().fault().isEmpty() ? d.health().state().name().toLowerCase(java.util.Locale.ROOT) : d.health().fault());
      }
    }
    InventoryChange.since(registeredUnits, reading).filter(c -> !c.isEmpty()).ifPresent(change -> {
      if (!change.describe().equals(changeLogged)) {
        changeLogged = change.describe();
        log.warn("the GPU inventory of worker {} changed since it registered: {}; reporting the GPUs affected as faulty",
            workerId, change.describe());
      }
      for (InventoryChange.Difference d : change.differences()) {
        affected(d).stream().filter(lent::contains).forEach(i ->
            faults.computeIfAbsent(i, k -> new ArrayList<>()).add("inventory changed: " + d.describe()));
      }
    });
    List<GpuCondition> now = new ArrayList<>();
    for (int index : lent) {
      List<String> f = faults.get(index);
      String uuid = uuids.get(index);
      now.add(f == null ? new GpuCondition(index, true, uuid, null)
          : new GpuCondition(index, false, uuid, String.join("; ", new LinkedHashSet<>(f))));
    }
    boolean changed = false;
    for (GpuCondition c : now) {
      if (!same(c, told.get(c.index()))) {
        changed = true;
        if (c.healthy()) {
          log.info("GPU {} of worker {} reads healthy again", c.index(), workerId);
        } else {
          log.warn("GPU {} of worker {} is faulty: {}", c.index(), workerId, c.fault());
        }
      }
    }
    return changed ? Optional.of(now) : Optional.empty();
  }

  /** The JobCenter took this report. */
  public void told(List<GpuCondition> conditions) {
    Map<Integer, GpuCondition> m = new HashMap<>();
    conditions.forEach(c -> m.put(c.index(), c));
    told = m;
  }

  /** The worker registered again (with a new active master, which knows no fault): all healthy as far as it knows. */
  public void registered() {
    told = Map.of();
  }

  private static boolean same(GpuCondition now, GpuCondition before) {
    if (before == null) {
      return now.healthy();
    }
    return now.healthy() == before.healthy() && java.util.Objects.equals(now.fault(), before.fault());
  }

  /** The lent indices a difference touches: where the unit was, and where another one now is. */
  private static Set<Integer> affected(InventoryChange.Difference d) {
    if (d instanceof InventoryChange.Gone g) {
      return Set.of(g.index());
    }
    if (d instanceof InventoryChange.Moved m) {
      return Set.of(m.registeredIndex(), m.index());
    }
    return Set.of(((InventoryChange.Replaced) d).index());
  }
}
