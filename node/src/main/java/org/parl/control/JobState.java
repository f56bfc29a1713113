package org.parl.control;

import java.util.List;
import org.parl.wire.Checks;
import org.parl.wire.gateway.WorkerState;

/**
 * A job the JobCenter granted resources to: who asked, what it runs and where. Published in the
 * cluster map {@code parl.jobs}, and carried by grants, launches and snapshots.
 *
 * @param gpuShare thousandths of each of its GPUs it holds: 1000 when whole, 1..999 for a share, 0 for a
 *     memory budget alone or a CPU job
 * @param gpuMemoryMb its GPU memory budget on each GPU, or 0
 */
public record JobState(
    String jobId,
    String clientId,
    String workerId,
    String actorClass,
    int cpus,
    List<Integer> gpus,
    int gpuShare,
    long gpuMemoryMb,
    int maxMemoryMb,
    long createdAt) {

  public JobState {
    Checks.name("jobId", jobId);
    Checks.name("clientId", clientId);
    Checks.name("workerId", workerId);
    Checks.name("actorClass", actorClass);
    Checks.range("cpus", cpus, 0, 1 << 20);
    gpus = Checks.ids("gpus", gpus, WorkerState.MAX_GPUS);
    Checks.range("gpuShare", gpuShare, 0, 1000);
    Checks.range("gpuMemoryMb", gpuMemoryMb, 0, 1L << 40);
    Checks.range("maxMemoryMb", maxMemoryMb, 0, 1 << 24);
  }

  /** A job holding CPUs, or whole GPUs, with no GPU memory budget (PARL's two kinds). */
  public JobState(String jobId, String clientId, String workerId, String actorClass, int cpus, List<Integer> gpus,
      int maxMemoryMb, long createdAt) {
    this(jobId, clientId, workerId, actorClass, cpus, gpus, gpus.isEmpty() ? 0 : 1000, 0, maxMemoryMb, createdAt);
  }
}
