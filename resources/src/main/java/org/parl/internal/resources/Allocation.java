package org.parl.internal.resources;

import java.util.List;

/**
 * Resources granted to one job: the worker that hosts it, the CPU count and the exact GPU ids.
 *
 * @param jobId the job the resources belong to
 * @param workerId the worker that lends them
 * @param cpus number of CPUs taken from the worker
 * @param gpus GPU ids taken from the worker, ascending (one id for a share or a budget alone)
 * @param gpuShare units held on each GPU of {@code gpus}: {@link GpuAmount#UNITS_PER_GPU} for whole
 *     GPUs, fewer for a share, 0 for a memory budget alone (and for a CPU-only job)
 * @param gpuMemoryMb the GPU memory budget in MiB held on each of its GPUs, or 0
 * @throws IllegalArgumentException if the share or budget is out of range, a share spans GPUs, or a GPU
 *     is held with neither share nor budget (or a share or budget without a GPU)
 */
public record Allocation(String jobId, String workerId, int cpus, List<Integer> gpus, int gpuShare, long gpuMemoryMb) {

  public Allocation {
    gpus = List.copyOf(gpus);
    if (gpuShare < 0 || gpuShare > GpuAmount.UNITS_PER_GPU || gpuMemoryMb < 0) {
      throw new IllegalArgumentException("job " + jobId + " holds an invalid GPU share " + gpuShare
          + " or budget " + gpuMemoryMb);
    }
    if (gpus.size() > 1 && gpuShare != GpuAmount.UNITS_PER_GPU) {
      throw new IllegalArgumentException("job " + jobId + " holds a share of " + gpus.size() + " GPUs: a share never spans GPUs");
    }
    if (gpus.isEmpty() && (gpuShare > 0 || gpuMemoryMb > 0)) {
      throw new IllegalArgumentException("job " + jobId + " holds a GPU share or budget without a GPU");
    }
    if (!gpus.isEmpty() && gpuShare == 0 && gpuMemoryMb == 0) {
      throw new IllegalArgumentException("job " + jobId + " holds GPU " + gpus.get(0) + " with neither a share nor a budget");
    }
  }

  /** Whole GPUs (all their units) and CPUs, without a memory budget. */
  public Allocation(String jobId, String workerId, int cpus, List<Integer> gpus) {
    this(jobId, workerId, cpus, gpus, heldUnits(gpus), 0);
  }

  /** The units a job holds on each GPU when it holds {@code gpus} whole: all of each, or 0 for none. */
  public static int heldUnits(List<Integer> gpus) {
    return gpus.isEmpty() ? 0 : GpuAmount.UNITS_PER_GPU;
  }

  /** True when the job holds its GPUs whole. */
  public boolean wholeGpus() {
    return !gpus.isEmpty() && gpuShare == GpuAmount.UNITS_PER_GPU;
  }
}
