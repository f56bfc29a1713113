package org.parl.master;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.parl.cluster.BadMessageException;
import org.parl.cluster.Fields;

/**
 * What a worker tells the JobCenter when it registers: who it is and what it lends.
 *
 * @param gpuDevices the detected devices ({@code index, uuid, name, memoryTotalMb}) for display
 */
public record WorkerInfo(
    String workerId,
    String nodeId,
    String hostname,
    String host,
    int cpus,
    List<Integer> gpus,
    JsonArray gpuDevices) {

  public static final int MAX_GPUS_PER_WORKER = 1024;

  public static WorkerInfo fromJson(JsonObject o) {
    WorkerInfo w = new WorkerInfo(
        Fields.string(o, "workerId"),
        Fields.string(o, "nodeId"),
        Fields.string(o, "hostname"),
        Fields.string(o, "host"),
        Fields.integer(o, "cpus", 0, 1 << 16),
        Fields.idList(o, "gpus", MAX_GPUS_PER_WORKER),
        Fields.optionalArray(o, "gpuDevices"));
    for (Object d : w.gpuDevices) {
      if (!(d instanceof JsonObject)) {
        throw new BadMessageException("field 'gpuDevices' must hold objects");
      }
    }
    return w;
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("workerId", workerId)
        .put("nodeId", nodeId)
        .put("hostname", hostname)
        .put("host", host)
        .put("cpus", cpus)
        .put("gpus", new JsonArray(gpus))
        .put("gpuDevices", gpuDevices);
  }
}
