package org.parl.master;

import io.vertx.core.json.JsonObject;
import org.parl.cluster.Fields;

/**
 * A client's request for a job: resources, how long it may wait, and what it will run.
 *
 * <p>Amounts are read as given (negative and zero included) so that the JobCenter can answer
 * each wrong amount with its own message.
 */
public record JobRequest(String clientId, int cpus, int gpus, int maxMemoryMb, long timeoutMs, String actorClass) {

  public static final long MAX_TIMEOUT_MS = 24L * 3600 * 1000;

  public static JobRequest fromJson(JsonObject o) {
    return new JobRequest(
        Fields.string(o, "clientId"),
        Fields.optionalInteger(o, "cpus", -(1 << 20), 1 << 20, 0),
        Fields.optionalInteger(o, "gpus", -(1 << 20), 1 << 20, 0),
        Fields.optionalInteger(o, "maxMemoryMb", 0, 1 << 24, 0),
        Fields.longValue(o, "timeoutMs", 0, MAX_TIMEOUT_MS),
        Fields.optionalString(o, "actorClass", "?"));
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("clientId", clientId)
        .put("cpus", cpus)
        .put("gpus", gpus)
        .put("maxMemoryMb", maxMemoryMb)
        .put("timeoutMs", timeoutMs)
        .put("actorClass", actorClass);
  }
}
