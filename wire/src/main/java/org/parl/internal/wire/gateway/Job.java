package org.parl.internal.wire.gateway;

import java.util.List;
import org.parl.internal.resources.Allocation;
import org.parl.internal.resources.GpuAmount;
import org.parl.internal.wire.Checks;

/**
 * A job and its resources: who asked, what it runs, where, and what the JobCenter granted it. Made
 * once where the JobCenter grants the allocation, then passed on as it is: published in the cluster
 * map {@code parl.jobs}, carried by grants and launches, reported by workers to a new master, and
 * told to the client inside its {@link JobPlacement}.
 *
 * @param gpus the indices of the GPUs it holds, none for a CPU job
 * @param gpuShare units of each of its GPUs it holds ({@link GpuAmount#UNITS_PER_GPU} when whole, fewer for a share), 0 for a
 *     memory budget alone or a CPU job
 * @param gpuMemoryMb its GPU memory budget on each GPU, or 0
 * @param maxMemoryMb the memory limit of its process, or 0 for none
 * @param createdAt when it was granted, in milliseconds since the epoch
 */
public record Job(
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

  public Job {
    Checks.name("jobId", jobId);
    Checks.name("clientId", clientId);
    Checks.name("workerId", workerId);
    Checks.name("actorClass", actorClass);
    Checks.range("cpus", cpus, 0, 1 << 20);
    gpus = Checks.ids("gpus", gpus, WorkerState.MAX_GPUS);
    Checks.range("gpuShare", gpuShare, 0, GpuAmount.UNITS_PER_GPU);
    Checks.range("gpuMemoryMb", gpuMemoryMb, 0, 1L << 40);
    Checks.range("maxMemoryMb", maxMemoryMb, 0, 1 << 24);
  }

  /** A job holding CPUs, or whole GPUs, with no GPU memory budget (PARL's two kinds). */
  public Job(String jobId, String clientId, String workerId, String actorClass, int cpus, List<Integer> gpus,
      int maxMemoryMb, long createdAt) {
    this(jobId, clientId, workerId, actorClass, cpus, gpus, Allocation.heldUnits(gpus), 0, maxMemoryMb, createdAt);
  }
}
