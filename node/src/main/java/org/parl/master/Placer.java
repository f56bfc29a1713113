package org.parl.master;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.parl.cluster.Addresses;
import org.parl.cluster.OneJob;
import org.parl.control.ControlBus;
import org.parl.control.ControlReply.Done;
import org.parl.control.ControlReply.Granted;
import org.parl.control.ControlReply.Launched;
import org.parl.control.Failures;
import org.parl.control.JobCenterRequest.Allocate;
import org.parl.control.JobCenterRequest.EndJob;
import org.parl.control.LocalEvent.WorkerLost;
import org.parl.control.WorkerRequest.KillJob;
import org.parl.ha.JobCenterCalls;
import org.parl.ha.MasterRecord;
import org.parl.ha.Masters;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.gateway.Job;
import org.parl.internal.wire.gateway.JobPlacement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Places jobs for the gateway: a JobCenter allocation, then a launch on the chosen worker (whose
 * resources go back if the launch fails); and stops them. An allocation still waiting when the
 * active master changes is resubmitted to the new one with the time it has left (docs/contract.md §10): the
 * old JobCenter's answer, should one still come, is ignored. Used from the gateway's context only.
 */
final class Placer {

  private static final Logger log = LoggerFactory.getLogger(Placer.class);
  /** A cold job JVM on a busy host can take seconds; a launch that takes longer has failed. */
  static final long LAUNCH_TIMEOUT_MS = 120_000;
  /** Beyond its own resource wait, how long the JobCenter (in this process) may take to answer. */
  private static final long JOB_CENTER_SLACK_MS = 30_000;
  private static final long KILL_TIMEOUT_MS = 10_000;
  /** How long one try of a quick JobCenter request waits, so that one sent to a master that just died is tried again soon. */
  static final long ATTEMPT_MS = 2_000;

  private final Vertx vertx;
  /** This member's node id: requests to verticles in this same process skip the cluster lookup. */
  private final String nodeId;
  private final Supplier<Masters> masters;
  /** The active master that allocations were last sent to. */
  private String lastActive;
  private final PeerRequests launches = new PeerRequests();
  /** Allocations waiting for the JobCenter's answer. */
  private final Set<Waiting> waiting = new LinkedHashSet<>();
  /** Jobs granted and being launched: their clients hold them, though they do not know it yet. */
  private final Set<String> launching = new HashSet<>();

  /** One allocation; {@code attempt} counts its submissions, so that a superseded answer is recognised. */
  private static final class Waiting {
    final Allocate request;
    final long waitUntil;
    final Promise<Granted> granted = Promise.promise();
    int attempt;

    Waiting(Allocate request) {
      this.request = request;
      this.waitUntil = System.currentTimeMillis() + request.timeoutMs();
    }
  }

  /** @param masters the cluster's masters: allocations go to the active one's JobCenter */
  Placer(Vertx vertx, String nodeId, Supplier<Masters> masters) {
    this.vertx = vertx;
    this.nodeId = nodeId;
    this.masters = masters;
    this.lastActive = masters.get().active().map(MasterRecord::memberId).orElse(null);
  }

  /** Resources, then a running job process: where the client finds it. */
  Future<JobPlacement> place(Allocate request) {
    Waiting w = new Waiting(request);
    waiting.add(w);
    submit(w);
    return w.granted.future().compose(granted -> {
      Job job = granted.launch().job();
      launching.add(job.jobId());
      return launch(granted)
          .recover(e -> {
            release(job, "its launch failed: " + e.getMessage());
            return Future.failedFuture(e);
          })
          .onComplete(ar -> launching.remove(job.jobId()));
    });
  }

  private void submit(Waiting w) {
    int attempt = ++w.attempt;
    long waitLeft = Math.max(0, w.waitUntil - System.currentTimeMillis());
    JobCenterCalls.request(vertx, masters, w.request.withTimeoutMs(waitLeft), waitLeft + JOB_CENTER_SLACK_MS).onComplete(ar -> {
      if (w.attempt == attempt) {
        waiting.remove(w);
        w.granted.handle(ar);
      }
    });
  }

  /**
   * The directory says who is active: if another master than before, what waited at the old one is
   * asked of the new one (the same one again after a moment with none changes nothing).
   */
  void activeChanged(String active) {
    if (active.equals(lastActive)) {
      return;
    }
    lastActive = active;
    for (Waiting w : List.copyOf(waiting)) {
      submit(w);
    }
  }

  /** The jobs being launched for clients of this gateway. */
  Set<String> launching() {
    return Set.copyOf(launching);
  }

  private Future<JobPlacement> launch(Granted granted) {
    Job job = granted.launch().job();
    Future<Launched> launched = ControlBus.request(vertx, Addresses.worker(job.workerId()), granted.launch(), LAUNCH_TIMEOUT_MS,
        nodeId.equals(granted.workerNodeId()));
    return launches.track(job.workerId(), launched).compose(l -> l.placement().job().equals(job)
        ? Future.succeededFuture(l.placement())
        : Failures.future(ErrorKind.INTERNAL, "worker " + job.workerId() + " answered the launch of job " + job.jobId()
            + " with a placement of another job (" + l.placement().job().jobId() + ")"));
  }

  /** Stops a job; a failure is logged (the job's end, or its worker's loss, is reported anyway). */
  Future<Done> kill(String workerId, String jobId, String cause) {
    return OneJob.request(vertx, workerId, jobId, new KillJob(jobId, cause), KILL_TIMEOUT_MS)
        .onFailure(e -> log.warn("could not stop job {} on worker {}: {}", jobId, workerId, e.getMessage()));
  }

  /** Returns the resources of a job that never started; the worker may have reported it already. */
  private void release(Job job, String cause) {
    EndJob end = new EndJob(job.jobId(), job.workerId(), cause, false);
    JobCenterCalls.request(vertx, masters, end, JOB_CENTER_SLACK_MS, ATTEMPT_MS)
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
