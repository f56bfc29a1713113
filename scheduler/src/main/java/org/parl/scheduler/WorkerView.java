package org.parl.scheduler;

import java.util.List;
import java.util.Set;
import org.parl.internal.resources.GpuAmount;

/**
 * An immutable snapshot of one worker's resources, as published to the cluster map.
 *
 * <p>Every GPU of the worker is in exactly one of {@code vacantGpus}, {@code usedGpus} and
 * {@code outOfServiceGpus}. A GPU with nothing held on a drained worker is out of service, not vacant:
 * nothing new is placed there. A GPU holding any job is used, whatever its service state.
 *
 * @param workerId the worker
 * @param cpusTotal CPUs the worker lends
 * @param cpusUsed CPUs held by jobs
 * @param vacantGpus GPU ids free for new jobs ({@code worker_vacant_gpus}), ascending: no share or budget held, in service
 * @param usedGpus GPU ids holding any job ({@code worker_used_gpus}), ascending: whole, by a share or by a budget
 * @param outOfServiceGpus GPU ids held by no job that are drained or quarantined, ascending
 * @param gpuLoads each GPU's units and budgets in use and its service state, by ascending index
 * @param drained whether the whole worker is drained (nothing new placed)
 * @param jobs ids of the jobs holding resources on this worker
 */
public record WorkerView(
    String workerId,
    int cpusTotal,
    int cpusUsed,
    List<Integer> vacantGpus,
    List<Integer> usedGpus,
    List<Integer> outOfServiceGpus,
    List<GpuLoad> gpuLoads,
    boolean drained,
    Set<String> jobs) {

  /**
   * One GPU's load.
   *
   * @param index the GPU's id
   * @param shareUsed units held ({@link GpuAmount#UNITS_PER_GPU} when held whole)
   * @param memoryBudgetMb budgets placed on it, summed
   * @param memoryMb its total memory (0 when unknown)
   * @param drained taken out of service by an operator
   * @param quarantined taken out of service as unhealthy
   */
  public record GpuLoad(int index, int shareUsed, long memoryBudgetMb, long memoryMb, boolean drained, boolean quarantined) {}

  public int cpusVacant() {
    return cpusTotal - cpusUsed;
  }
}
