package org.parl.control;

import java.util.List;
import org.parl.wire.Checks;
import org.parl.wire.gateway.WorkerState;

/**
 * A job the JobCenter granted resources to: who asked, what it runs and where. Published in the
 * cluster map {@code parl.jobs}, and carried by grants, launches and snapshots.
 */
public record JobState(
    String jobId,
    String clientId,
    String workerId,
    String actorClass,
    int cpus,
    List<Integer> gpus,
    int maxMemoryMb,
    long createdAt) {

  public JobState {
    Checks.name("jobId", jobId);
    Checks.name("clientId", clientId);
    Checks.name("workerId", workerId);
    Checks.name("actorClass", actorClass);
    Checks.range("cpus", cpus, 0, 1 << 20);
    gpus = Checks.ids("gpus", gpus, WorkerState.MAX_GPUS);
    Checks.range("maxMemoryMb", maxMemoryMb, 0, 1 << 24);
  }
}
