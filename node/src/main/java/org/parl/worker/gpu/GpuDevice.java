package org.parl.worker.gpu;

import io.vertx.core.json.JsonObject;
import java.util.Optional;
import org.parl.internal.wire.gateway.WorkerState.GpuCard;

/**
 * One unit a worker can lend, as {@code nvidia-smi} describes it: a whole GPU, or one MIG instance
 * of a GPU in MIG mode ({@link Mig}), which is then lent instead of its parent.
 *
 * @param index the unit's id in the pool: the GPU's index, or for a MIG instance the number that
 *     {@link GpuUnits#migIndex} gives it
 * @param uuid {@code GPU-...}, or {@code MIG-...} for a MIG instance
 * @param name the GPU's model, or a MIG instance's profile ({@code 1g.10gb})
 * @param memoryUsedMb for a MIG instance always 0 (nvidia-smi reports it only per parent)
 * @param health the GPU's health (a MIG instance has its parent's)
 * @param mig where the unit is a MIG instance: its parent
 */
public record GpuDevice(int index, String uuid, String name, long memoryTotalMb, long memoryUsedMb, int utilization,
    GpuHealth health, Optional<Mig> mig) {

  /**
   * The GPU a MIG instance belongs to.
   *
   * @param device the instance's number under its GPU, as {@code nvidia-smi -L} lists it
   */
  public record Mig(int parentIndex, String parentUuid, int device) {}

  /** A healthy whole GPU. */
  public GpuDevice(int index, String uuid, String name, long memoryTotalMb, long memoryUsedMb, int utilization) {
    this(index, uuid, name, memoryTotalMb, memoryUsedMb, utilization, GpuHealth.HEALTHY, Optional.empty());
  }

  /** The same unit with another health. */
  GpuDevice withHealth(GpuHealth h) {
    return new GpuDevice(index, uuid, name, memoryTotalMb, memoryUsedMb, utilization, h, mig);
  }

  /** The same unit with another UUID (a lost GPU's, which the driver can no longer read). */
  GpuDevice withUuid(String u) {
    return new GpuDevice(index, u, name, memoryTotalMb, memoryUsedMb, utilization, health, mig);
  }

  /**
   * What a job's {@code CUDA_VISIBLE_DEVICES} names this unit by: a MIG instance can be named only
   * by its UUID; a whole GPU by its index (PARL's way).
   */
  public String visibleName() {
    return mig.isPresent() ? uuid : String.valueOf(index);
  }

  /** What the JobCenter is told of this unit when its worker registers, for display. */
  public GpuCard card() {
    return new GpuCard(index, uuid, name, memoryTotalMb, memoryUsedMb, utilization);
  }

  /** This unit in a worker's host statistics ({@code gpuDevices}), which monitors read. */
  public JsonObject toJson() {
    JsonObject j = new JsonObject()
        .put("index", index)
        .put("uuid", uuid)
        .put("name", name)
        .put("memoryTotalMb", memoryTotalMb)
        .put("memoryUsedMb", memoryUsedMb)
        .put("utilization", utilization)
        .put("health", health.toJson());
    mig.ifPresent(m -> j.put("mig", new JsonObject().put("parentIndex", m.parentIndex())
        .put("parentUuid", m.parentUuid()).put("device", m.device())));
    return j;
  }
}
