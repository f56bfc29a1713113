package org.parl.scheduler;

/**
 * What the scheduler knows of running jobs when a waiting request may preempt some: their priority, and
 * their age. The caller (the JobCenter) keeps both; the pool knows only what each job holds.
 */
public interface Preemptible {

  /** The job's priority, or a negative number for a job that is never preempted. */
  int priorityOf(String jobId);

  /** A number that grows with the job's start: among jobs of equal priority the youngest goes first. */
  long startOrder(String jobId);
}
