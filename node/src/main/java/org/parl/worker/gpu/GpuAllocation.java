package org.parl.worker.gpu;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a job's GPU ids into what its process is given: the names of its
 * {@code CUDA_VISIBLE_DEVICES} (a whole GPU by its index, a MIG instance by its {@code MIG-} UUID,
 * the only way CUDA addresses one) and the UUIDs its identity check expects, in the same order.
 * An id the worker's inventory does not describe (a GPU lent with {@code --gpus} while nvidia-smi
 * could not be read) keeps its index and has no UUID to check. With {@code --cuda-visible-devices uuid}
 * ({@link GpuPolicy.Visible#UUID}) every unit with a UUID is named by it.
 */
public final class GpuAllocation {

  private final Map<Integer, GpuDevice> units;
  private final boolean byUuid;

  /** Every unit named by its index, or by its UUID where only that names it (a MIG instance). */
  public GpuAllocation(List<GpuDevice> units) {
    this(units, false);
  }

  /**
   * @param units the units the worker lends, as its inventory described them when it started
   * @param byUuid whether {@code CUDA_VISIBLE_DEVICES} names every unit that has a UUID by it
   */
  public GpuAllocation(List<GpuDevice> units, boolean byUuid) {
    this.byUuid = byUuid;
    Map<Integer, GpuDevice> m = new LinkedHashMap<>();
    units.forEach(u -> m.put(u.index(), u));
    this.units = Map.copyOf(m);
  }

  /** The allocation of a worker with no GPU: every id keeps its index and has no UUID. */
  public static GpuAllocation none() {
    return new GpuAllocation(List.of());
  }

  /** The value of {@code CUDA_VISIBLE_DEVICES} for these ids ({@code ""} for none). */
  public String visibleDevices(List<Integer> gpus) {
    return String.join(",", gpus.stream().map(id -> units.containsKey(id) ? name(units.get(id)) : String.valueOf(id))
        .toList());
  }

  private String name(GpuDevice unit) {
    return byUuid && !unit.uuid().isEmpty() ? unit.uuid() : unit.visibleName();
  }

  /** The UUIDs of these ids, in their order; empty when any of them has none (nothing to check against). */
  public List<String> uuids(List<Integer> gpus) {
    List<String> out = gpus.stream().map(id -> units.containsKey(id) ? units.get(id).uuid() : "").toList();
    return out.stream().anyMatch(String::isEmpty) ? List.of() : out;
  }
}
