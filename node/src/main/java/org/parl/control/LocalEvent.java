package org.parl.control;

import org.parl.wire.Checks;

/** What the JobCenter tells the client gateway in the same process (published local-only). */
public sealed interface LocalEvent extends ControlMessage {

  /** A job ended or was lost; its client is told. */
  record JobEnded(String jobId, String clientId, String workerId, String cause, boolean lost) implements LocalEvent {
    public JobEnded {
      Checks.name("jobId", jobId);
      Checks.name("clientId", clientId);
      Checks.name("workerId", workerId);
      Checks.present("cause", cause);
    }
  }

  /** A worker left the pool: launches still waiting on it must fail now. */
  record WorkerLost(String workerId, String cause) implements LocalEvent {
    public WorkerLost {
      Checks.name("workerId", workerId);
      Checks.present("cause", cause);
    }
  }
}
