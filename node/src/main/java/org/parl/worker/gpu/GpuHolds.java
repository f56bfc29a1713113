package org.parl.worker.gpu;

import java.util.Collection;
import java.util.Optional;
import org.parl.internal.resources.GpuAmount;
import org.parl.internal.wire.gateway.Job;

/**
 * The worker's own check of a grant against the jobs it runs: a GPU held whole is held by one job,
 * and the shares on a GPU never add up to more than the whole of it. The JobCenter decides; this
 * keeps a confused or stale grant from putting two live jobs on one GPU.
 */
public final class GpuHolds {

  private static final int WHOLE = GpuAmount.UNITS_PER_GPU;

  private GpuHolds() {}

  /** Why {@code job} cannot run beside {@code running}, or empty when it can. */
  public static Optional<String> conflict(Collection<Job> running, Job job) {
    if (running.stream().anyMatch(other -> other.jobId().equals(job.jobId()))) {
      return Optional.of("already runs job " + job.jobId());
    }
    for (int gpu : job.gpus()) {
      int held = 0;
      for (Job other : running) {
        if (!other.gpus().contains(gpu)) {
          continue;
        }
        if (other.gpuShare() == WHOLE || job.gpuShare() == WHOLE) {
          return Optional.of("already runs job " + other.jobId() + " with GPU(s) " + other.gpus() + ": job " + job.jobId()
              + " cannot have GPU(s) " + job.gpus());
        }
        held += other.gpuShare();
      }
      if (held + job.gpuShare() > WHOLE) {
        return Optional.of("has " + (WHOLE - held) + " thousandths of GPU " + gpu + " free: job " + job.jobId()
            + " cannot have " + job.gpuShare());
      }
    }
    return Optional.empty();
  }
}
