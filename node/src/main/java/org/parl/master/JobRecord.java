package org.parl.master;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.parl.scheduler.Allocation;

/** A job the JobCenter granted resources to: who asked, what it runs and where. */
public record JobRecord(JobRequest request, Allocation allocation, long createdAtMillis) {

  public String jobId() {
    return allocation.jobId();
  }

  public String workerId() {
    return allocation.workerId();
  }

  public String clientId() {
    return request.clientId();
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("jobId", jobId())
        .put("clientId", clientId())
        .put("workerId", workerId())
        .put("actorClass", request.actorClass())
        .put("cpus", allocation.cpus())
        .put("gpus", new JsonArray(allocation.gpus()))
        .put("maxMemoryMb", request.maxMemoryMb())
        .put("createdAt", createdAtMillis);
  }
}
