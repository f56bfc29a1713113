package org.parl.worker;

import io.vertx.core.json.JsonObject;

/** One GPU as {@code nvidia-smi} describes it. */
public record GpuDevice(int index, String uuid, String name, long memoryTotalMb, long memoryUsedMb, int utilization) {

  public JsonObject toJson() {
    return new JsonObject()
        .put("index", index)
        .put("uuid", uuid)
        .put("name", name)
        .put("memoryTotalMb", memoryTotalMb)
        .put("memoryUsedMb", memoryUsedMb)
        .put("utilization", utilization);
  }
}
