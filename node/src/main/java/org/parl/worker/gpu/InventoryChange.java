package org.parl.worker.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How the units a worker registered with differ from a new inventory reading: never remapped
 * silently, each difference is named so that the worker can report it. Only the registered units
 * are compared (a GPU the worker does not lend may come and go); health is not a difference here
 * ({@link GpuDevice#health()} says it).
 *
 * @param differences empty when every registered unit is still at its index with its UUID
 */
public record InventoryChange(List<Difference> differences) {

  /** One registered unit that is not where it was. */
  public sealed interface Difference permits Gone, Moved, Replaced {
    /** The difference in words, for a log line or a report. */
    String describe();
  }

  /** Neither the unit's index nor its UUID is in the new reading. */
  public record Gone(int index, String uuid) implements Difference {
    @Override
    public String describe() {
      return "GPU " + index + " (" + uuid + ") is gone";
    }
  }

  /** The unit's UUID is now at another index. */
  public record Moved(String uuid, int registeredIndex, int index) implements Difference {
    @Override
    public String describe() {
      return uuid + " moved from GPU " + registeredIndex + " to GPU " + index;
    }
  }

  /**
   * A unit the worker did not register is now at the registered index, and the registered UUID is
   * nowhere (where a registered unit moved to the index, the one that was there is {@link Gone}).
   */
  public record Replaced(int index, String registeredUuid, String uuid) implements Difference {
    @Override
    public String describe() {
      return "GPU " + index + " was " + registeredUuid + " and is now " + uuid;
    }
  }

  /** A copy of the differences is kept. */
  public InventoryChange {
    differences = List.copyOf(differences);
  }

  /** Whether every registered unit is where it was. */
  public boolean isEmpty() {
    return differences.isEmpty();
  }

  /** All differences in one line ({@code none} when there are none). */
  public String describe() {
    return differences.isEmpty() ? "none" : differences.stream().map(Difference::describe).collect(Collectors.joining("; "));
  }

  /**
   * How a worker's inventory changed since it registered: the units it registered with (as its
   * inventory described them when it started) compared with a new reading; empty when the reading
   * failed or is stale, which says nothing about the GPUs.
   */
  public static Optional<InventoryChange> since(List<GpuDevice> registered, GpuInventory.Reading now) {
    if (now.problem().isPresent() || now.stale()) {
      return Optional.empty();
    }
    return Optional.of(compare(registered, now.devices()));
  }

  /**
   * Compares what a worker registered with ({@code registered}: the units it lends) with a new
   * reading's units. Call it with a reading that has no problem: a stale one is the old inventory.
   * A unit whose UUID the driver could not read (a lost GPU) counts as being where it was.
   */
  public static InventoryChange compare(List<GpuDevice> registered, List<GpuDevice> now) {
    List<Difference> out = new ArrayList<>();
    for (GpuDevice r : registered) {
      Optional<GpuDevice> atIndex = now.stream().filter(d -> d.index() == r.index()).findFirst();
      if (atIndex.isPresent() && (atIndex.get().uuid().equals(r.uuid()) || atIndex.get().uuid().isEmpty())) {
        continue;
      }
      Optional<GpuDevice> byUuid = now.stream().filter(d -> d.uuid().equals(r.uuid())).findFirst();
      if (byUuid.isPresent()) {
        out.add(new Moved(r.uuid(), r.index(), byUuid.get().index()));
      } else if (atIndex.isPresent() && registered.stream().noneMatch(d -> d.uuid().equals(atIndex.get().uuid()))) {
        out.add(new Replaced(r.index(), r.uuid(), atIndex.get().uuid()));
      } else {
        out.add(new Gone(r.index(), r.uuid()));
      }
    }
    return new InventoryChange(out);
  }
}
