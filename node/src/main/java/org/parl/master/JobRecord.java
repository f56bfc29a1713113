package org.parl.master;

import org.parl.control.JobCenterRequest.Allocate;
import org.parl.control.JobState;
import org.parl.scheduler.Allocation;

/** A job the JobCenter granted resources to: the request, and what the pool gave it. */
public record JobRecord(Allocate request, Allocation allocation, long createdAtMillis) {

  public String jobId() {
    return allocation.jobId();
  }

  public String workerId() {
    return allocation.workerId();
  }

  public String clientId() {
    return request.clientId();
  }

  /** The job as published in the jobs map and sent to the gateway and the worker. */
  public JobState state() {
    return new JobState(jobId(), clientId(), workerId(), request.actorClass(), allocation.cpus(), allocation.gpus(),
        allocation.gpuShare(), allocation.gpuMemoryMb(), request.maxMemoryMb(), createdAtMillis);
  }
}
