package org.parl.master;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.parl.cluster.Addresses;
import org.parl.control.ControlBus;
import org.parl.control.ControlReply.Done;
import org.parl.control.ControlReply.Granted;
import org.parl.control.ControlReply.Launched;
import org.parl.control.Failures;
import org.parl.control.JobCenterRequest.Allocate;
import org.parl.control.JobCenterRequest.EndJob;
import org.parl.control.JobState;
import org.parl.control.LocalEvent.WorkerLost;
import org.parl.control.WorkerRequest.KillJob;
import org.parl.control.WorkerRequest.Launch;
import org.parl.wire.ErrorKind;
import org.parl.wire.gateway.JobPlacement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Places jobs for the gateway: a JobCenter allocation, then a launch on the chosen worker (whose
 * resources go back if the launch fails); and stops them. Used from the gateway's context only.
 */
final class Placer {

  private static final Logger log = LoggerFactory.getLogger(Placer.class);
  /** A cold job JVM on a busy host can take seconds; a launch that takes longer has failed. */
  static final long LAUNCH_TIMEOUT_MS = 120_000;
  /** Beyond its own resource wait, how long the JobCenter (in this process) may take to answer. */
  private static final long JOB_CENTER_SLACK_MS = 30_000;
  private static final long KILL_TIMEOUT_MS = 10_000;

  private final Vertx vertx;
  /** This member's node id: requests to verticles in this same process skip the cluster lookup. */
  private final String nodeId;
  private final PeerRequests launches = new PeerRequests();

  Placer(Vertx vertx, String nodeId) {
    this.vertx = vertx;
    this.nodeId = nodeId;
  }

  /** Resources, then a running job process: where the client finds it. */
  Future<JobPlacement> place(Allocate request) {
    return ControlBus.request(vertx, Addresses.JOB_CENTER, request, request.timeoutMs() + JOB_CENTER_SLACK_MS, true)
        .compose(granted -> launch(granted).recover(e -> {
          release(granted.job(), "its launch failed: " + e.getMessage());
          return Future.failedFuture(e);
        }));
  }

  private Future<JobPlacement> launch(Granted granted) {
    JobState job = granted.job();
    Future<Launched> launched = ControlBus.request(vertx, Addresses.worker(job.workerId()), new Launch(job),
        LAUNCH_TIMEOUT_MS, nodeId.equals(granted.workerNodeId()));
    return launches.track(job.workerId(), launched).map(at -> new JobPlacement(job.jobId(), job.clientId(),
        job.workerId(), job.actorClass(), job.cpus(), job.gpus(), job.maxMemoryMb(), job.createdAt(), at.host(),
        at.port(), at.token(), at.pid(), at.slot()));
  }

  /** Stops a job; a failure is logged (the job's end, or its worker's loss, is reported anyway). */
  Future<Done> kill(String workerId, String jobId, String cause) {
    return ControlBus.request(vertx, Addresses.worker(workerId), new KillJob(jobId, cause), KILL_TIMEOUT_MS)
        .onFailure(e -> log.warn("could not stop job {} on worker {}: {}", jobId, workerId, e.getMessage()));
  }

  /** Returns the resources of a job that never started; the worker may have reported it already. */
  private void release(JobState job, String cause) {
    EndJob end = new EndJob(job.jobId(), job.workerId(), cause, false);
    ControlBus.request(vertx, Addresses.JOB_CENTER, end, JOB_CENTER_SLACK_MS, true)
        .onFailure(e -> {
          if (Failures.kindOf(e) != ErrorKind.NOT_FOUND) {
            log.warn("could not release job {}: {}", job.jobId(), e.getMessage());
          }
        });
  }

  /** Fails the launches still waiting on a worker that left the pool. */
  void workerLost(WorkerLost event) {
    launches.lost(event.workerId(), event.cause());
  }
}
