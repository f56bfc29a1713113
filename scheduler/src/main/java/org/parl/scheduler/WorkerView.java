package org.parl.scheduler;

import java.util.List;
import java.util.Set;

/**
 * An immutable snapshot of one worker's resources, as published to the cluster map.
 *
 * @param workerId the worker
 * @param cpusTotal CPUs the worker lends
 * @param cpusUsed CPUs held by jobs
 * @param vacantGpus GPU ids free for new jobs ({@code worker_vacant_gpus}), ascending
 * @param usedGpus GPU ids held by jobs ({@code worker_used_gpus}), ascending
 * @param jobs ids of the jobs holding resources on this worker
 */
public record WorkerView(
    String workerId,
    int cpusTotal,
    int cpusUsed,
    List<Integer> vacantGpus,
    List<Integer> usedGpus,
    Set<String> jobs) {

  public int cpusVacant() {
    return cpusTotal - cpusUsed;
  }
}
