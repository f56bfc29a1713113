package org.parl.control;

import org.parl.internal.wire.Checks;
import org.parl.internal.wire.gateway.GpuFault;

/** Events the JobCenter publishes to every master's gateway, and a node's own events. */
public sealed interface LocalEvent extends ControlMessage {

  /**
   * A job ended or was lost; its client is told.
   *
   * @param gpuFault the faulty GPU for which the JobCenter stopped the job, or null
   */
  record JobEnded(String jobId, String clientId, String workerId, String cause, boolean lost, GpuFault gpuFault,
      boolean preempted) implements LocalEvent {
    public JobEnded {
      Checks.name("jobId", jobId);
      Checks.name("clientId", clientId);
      Checks.name("workerId", workerId);
      Checks.present("cause", cause);
    }

    /** A job that ended for another reason than a GPU fault. */
    public JobEnded(String jobId, String clientId, String workerId, String cause, boolean lost) {
      this(jobId, clientId, workerId, cause, lost, null, false);
    }

    /** A job that ended for a GPU fault, or another reason than preemption. */
    public JobEnded(String jobId, String clientId, String workerId, String cause, boolean lost, GpuFault gpuFault) {
      this(jobId, clientId, workerId, cause, lost, gpuFault, false);
    }
  }

  /** A worker left the pool: launches still waiting on it must fail now. */
  record WorkerLost(String workerId, String cause) implements LocalEvent {
    public WorkerLost {
      Checks.name("workerId", workerId);
      Checks.present("cause", cause);
    }
  }

  /**
   * The active master changed (docs/contract.md §10), as this node's {@code MasterDirectory} sees it.
   *
   * @param active the member UUID of the active master now, or null when no master is left
   * @param previous the one before, or null when there was none
   * @param previousAddress the previous active master's gateway, or null
   */
  record MastersChanged(String active, String previous, String previousAddress) implements LocalEvent {}
}
