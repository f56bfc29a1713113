package org.parl.scheduler;

import org.parl.internal.resources.ResourceRequest;

/**
 * One GPU (or MIG instance) a worker lends, as its inventory describes it.
 *
 * @param index PARL's id of the GPU on its worker ({@code worker_vacant_gpus} / {@code worker_used_gpus})
 * @param uuid the device's UUID ({@code GPU-...} or {@code MIG-...}); unique on its worker
 * @param model the inventory name ({@code NVIDIA A100-SXM4-40GB}, or a MIG profile such as {@code 1g.10gb}),
 *     matched by {@link ResourceRequest#gpuModel()}
 * @param memoryMb total memory in MiB; 0 when unknown (no memory budget can be placed on it)
 */
public record GpuSpec(int index, String uuid, String model, long memoryMb) {

  public GpuSpec {
    if (index < 0) {
      throw new IllegalArgumentException("a GPU index must not be negative: " + index);
    }
    if (uuid == null || uuid.isBlank()) {
      throw new IllegalArgumentException("GPU " + index + " needs a UUID");
    }
    model = model == null ? "" : model;
    if (memoryMb < 0) {
      throw new IllegalArgumentException("GPU " + index + " has negative memory: " + memoryMb);
    }
  }

  /** A GPU known only by its index (tests, and workers whose inventory gives nothing more). */
  public static GpuSpec ofIndex(int index) {
    return new GpuSpec(index, "GPU-index-" + index, "", 0);
  }

  /** Whether this GPU is known by its index alone ({@link #ofIndex}): its UUID names no physical device. */
  public boolean indexOnly() {
    return uuid.equals("GPU-index-" + index);
  }

  /** Whether a request's model matches this GPU: contained in its name, ignoring case; null matches all. */
  public boolean matches(String wantedModel) {
    return modelMatches(model, wantedModel);
  }

  /** Whether {@code wantedModel} is contained in {@code model}, ignoring case; null matches all. */
  public static boolean modelMatches(String model, String wantedModel) {
    if (wantedModel == null) {
      return true;
    }
    // regionMatches rather than toLowerCase: placement asks this of many GPUs, and it allocates nothing.
    int n = wantedModel.length();
    for (int i = 0; i + n <= model.length(); i++) {
      if (model.regionMatches(true, i, wantedModel, 0, n)) {
        return true;
      }
    }
    return false;
  }
}
