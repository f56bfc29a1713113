package org.parl.scheduler;

import java.util.List;

/**
 * Resources granted to one job: the worker that hosts it, the CPU count and the exact GPU ids.
 *
 * @param jobId the job the resources belong to
 * @param workerId the worker that lends them
 * @param cpus number of CPUs taken from the worker
 * @param gpus GPU ids taken from the worker, ascending
 */
public record Allocation(String jobId, String workerId, int cpus, List<Integer> gpus) {

  public Allocation {
    gpus = List.copyOf(gpus);
  }
}
