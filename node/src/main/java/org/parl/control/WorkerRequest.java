package org.parl.control;

import org.parl.control.ControlReply.Done;
import org.parl.control.ControlReply.JobList;
import org.parl.control.ControlReply.JobLog;
import org.parl.control.ControlReply.JobStatus;
import org.parl.control.ControlReply.Launched;
import org.parl.internal.wire.Checks;
import org.parl.internal.wire.gateway.Job;

/**
 * What a worker ({@code parl.worker.<id>}) is asked, by the master's gateway and by monitors. The
 * requests about one job ({@link KillJob}, {@link ReadLog}, {@link DownloadLog}, {@link ReadStatus})
 * are answered as well by that job's own verticle on the worker ({@code parl.job.<jobId>}) while its
 * process lives.
 */
public sealed interface WorkerRequest extends ControlMessage {

  /** Most lines of a log a monitor may ask for. */
  int MAX_LOG_LINES = 10_000;
  /** Lines of a log sent when the request says nothing. */
  int DEFAULT_LOG_LINES = 500;

  /**
   * Start the job the JobCenter placed on this worker; answered when its process listens.
   *
   * @param grantedBy the member UUID of the active master whose JobCenter granted it: a worker
   *     launches only grants of the master it sees active (a grant from before a takeover is void)
   */
  record Launch(Job job, String grantedBy) implements WorkerRequest, Request<Launched> {
    public Launch {
      Checks.present("job", job);
      Checks.name("grantedBy", grantedBy);
    }
  }

  /** Stop a job; {@code cause} is what its client is told. */
  record KillJob(String jobId, String cause) implements WorkerRequest, Request<Done> {
    public KillJob {
      Checks.name("jobId", jobId);
      cause = Checks.text("cause", cause == null ? "stopped by the master" : cause, Checks.MAX_TEXT);
    }
  }

  /** The last {@code lines} lines of a job's log (default {@value #DEFAULT_LOG_LINES}). */
  record ReadLog(String jobId, Integer lines) implements WorkerRequest, Request<JobLog> {
    public ReadLog {
      Checks.name("jobId", jobId);
      lines = lines == null ? DEFAULT_LOG_LINES : Checks.range("lines", lines, 1, MAX_LOG_LINES);
    }
  }

  /** A job's whole log, up to the worker's download cap. */
  record DownloadLog(String jobId) implements WorkerRequest, Request<JobLog> {
    public DownloadLog {
      Checks.name("jobId", jobId);
    }
  }

  /** How one job's process fares: its state, calls served, and why it ended once it did. */
  record ReadStatus(String jobId) implements WorkerRequest, Request<JobStatus> {
    public ReadStatus {
      Checks.name("jobId", jobId);
    }
  }

  /** Every job the worker knows, running or recently ended. */
  record ListJobs() implements WorkerRequest, Request<JobList> {}
}
