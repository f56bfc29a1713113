package org.parl.master;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.parl.cluster.Addresses;
import org.parl.cluster.ClusterNode;
import org.parl.cluster.ClusterType;
import org.parl.cluster.MapPublisher;
import org.parl.cluster.MemberLeft;
import org.parl.control.ControlBus;
import org.parl.control.ControlCodec;
import org.parl.control.ControlReply.Cancelled;
import org.parl.control.ControlReply.Done;
import org.parl.control.ControlReply.Granted;
import org.parl.control.ControlReply.QueueFigures;
import org.parl.control.ControlReply.Registered;
import org.parl.control.ControlReply.Snapshot;
import org.parl.control.Dispatcher;
import org.parl.control.Failures;
import org.parl.control.JobCenterRequest.Allocate;
import org.parl.control.JobCenterRequest.CancelClient;
import org.parl.control.JobCenterRequest.EndJob;
import org.parl.control.JobCenterRequest.GetQueue;
import org.parl.control.JobCenterRequest.GetSnapshot;
import org.parl.control.JobCenterRequest.RegisterWorker;
import org.parl.control.JobCenterRequest.UnregisterWorker;
import org.parl.control.LocalEvent.JobEnded;
import org.parl.control.LocalEvent.WorkerLost;
import org.parl.limits.LimitSettings;
import org.parl.wire.ErrorKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the cluster's CPU/GPU pool: every registration, request, release and loss is decided here,
 * on this verticle's event loop, in order, with no locks. Each change is written through to the
 * cluster maps {@value Addresses#WORKERS_MAP} and {@value Addresses#JOBS_MAP}; job ends and
 * losses are told to the master's client gateway on {@value Addresses#JOB_EVENTS}.
 */
public final class JobCenterVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(JobCenterVerticle.class);
  private static final Future<Done> DONE = Future.succeededFuture(new Done());

  private final ClusterNode node;
  private final ClusterType type;
  private final int maxGpusPerActor;
  private final int maxWaitingPerClient;
  private JobCenter<Promise<Granted>> center;
  private MapPublisher workersMap;
  private MapPublisher jobsMap;
  /** Hazelcast member UUID to the Vert.x node id its workers registered with. */
  private final Map<String, String> nodesByMember = new HashMap<>();

  public JobCenterVerticle(ClusterNode node, ClusterType type, int maxGpusPerActor) {
    this(node, type, maxGpusPerActor, LimitSettings.DEFAULTS.maxWaitingPerClient());
  }

  /** @param maxWaitingPerClient how many creates of one client may wait at once (SPEC §8) */
  public JobCenterVerticle(ClusterNode node, ClusterType type, int maxGpusPerActor, int maxWaitingPerClient) {
    this.maxWaitingPerClient = maxWaitingPerClient;
    this.node = node;
    this.type = type;
    this.maxGpusPerActor = maxGpusPerActor;
  }

  @Override
  public Future<?> start() {
    center = new JobCenter<>(type, maxGpusPerActor, maxWaitingPerClient);
    workersMap = new MapPublisher(vertx, Addresses.WORKERS_MAP);
    jobsMap = new MapPublisher(vertx, Addresses.JOBS_MAP);
    node.onMemberRemoved(left -> context.runOnContext(v -> memberGone(left)));
    Dispatcher requests = new Dispatcher("the JobCenter", log)
        .on(RegisterWorker.class, this::register)
        .on(UnregisterWorker.class, this::unregister)
        .on(Allocate.class, this::allocate)
        .on(EndJob.class, this::end)
        .on(CancelClient.class, this::cancel)
        .on(GetSnapshot.class, r -> Future.succeededFuture(snapshot()))
        .on(GetQueue.class, r -> Future.succeededFuture(new QueueFigures(center.waitingCount(), center.longestWaitMillis(),
            center.mostWaitingOfOneClient())));
    return vertx.eventBus().consumer(Addresses.JOB_CENTER, requests::handle).completion();
  }

  private Future<Registered> register(RegisterWorker w) {
    // Vert.x messages name no sender: the cheap check is that the node it claims is a member now
    // (the event bus's TLS is what keeps strangers out altogether)
    Optional<String> member = node.memberOfNode(w.nodeId());
    if (member.isEmpty()) {
      log.warn("refused worker {} from {}: its node {} is not a cluster member", w.workerId(), w.hostname(), w.nodeId());
      return Failures.future(ErrorKind.INVALID, "worker " + w.workerId() + " names node " + w.nodeId()
          + ", which is not (or not exactly one) member of this cluster");
    }
    List<JobCenter.Granted<Promise<Granted>>> granted;
    try {
      granted = center.register(w);
    } catch (Rejected r) {
      log.warn("refused worker {} from {}: {}", w.workerId(), w.hostname(), r.getMessage());
      return Failures.future(r.kind(), r.getMessage());
    }
    log.info("worker {} joined from {} ({}): {}", w.workerId(), w.hostname(), w.host(),
        type == ClusterType.GPU ? "GPUs " + w.gpus() : w.cpus() + " CPUs");
    nodesByMember.put(member.get(), w.nodeId());
    publishWorker(w.workerId());
    grant(granted);
    return Future.succeededFuture(new Registered(type));
  }

  private Future<Done> unregister(UnregisterWorker r) {
    if (center.worker(r.workerId()).isEmpty()) {
      return Failures.future(ErrorKind.NOT_FOUND, "no worker " + r.workerId() + " is registered");
    }
    center.removeWorker(r.workerId()).ifPresent(lost -> dropped(lost, "worker " + r.workerId() + " stopped"));
    return DONE;
  }

  private Future<Granted> allocate(Allocate request) {
    Promise<Granted> reply = Promise.promise();
    JobCenter.Submitted submitted;
    try {
      submitted = center.submit(request, reply);
    } catch (Rejected r) {
      return Failures.future(r.kind(), r.getMessage());
    }
    if (submitted.job().isPresent()) {
      return Future.succeededFuture(granted(submitted.job().get()));
    }
    long requestId = submitted.requestId();
    long timer = vertx.setTimer(Math.max(1, request.timeoutMs()), t ->
        center.timeout(requestId).ifPresent(p -> p.fail(Failures.exception(ErrorKind.RESOURCE, timeoutMessage(request)))));
    return reply.future().onComplete(ar -> vertx.cancelTimer(timer));
  }

  /** Only for the job's own worker: anyone else's report would free GPUs that a live job still uses. */
  private Future<Done> end(EndJob r) {
    var job = center.job(r.jobId());
    if (job.isEmpty() || !job.get().workerId().equals(r.workerId())) {
      return Failures.future(ErrorKind.NOT_FOUND, "no job " + r.jobId() + " on worker " + r.workerId() + " holds resources");
    }
    center.end(r.jobId());
    jobsMap.remove(r.jobId());
    publishWorker(job.get().workerId());
    tellGateway(job.get(), r.cause(), r.lost());
    grant(center.drain());
    return DONE;
  }

  private Future<Cancelled> cancel(CancelClient r) {
    List<Promise<Granted>> cancelled = center.cancelClient(r.clientId());
    cancelled.forEach(p -> p.tryFail(Failures.exception(ErrorKind.LOST, "client " + r.clientId() + " disconnected")));
    grant(center.drain());
    return Future.succeededFuture(new Cancelled(cancelled.size()));
  }

  /**
   * Drops the workers of a member that left, recognised by the member UUID seen when they
   * registered: a member that merely announces the same Vert.x node id changes nothing.
   */
  private void memberGone(MemberLeft left) {
    String nodeId = nodesByMember.remove(left.memberId());
    if (nodeId == null) {
      return;
    }
    for (JobCenter.Lost lost : center.removeNode(nodeId)) {
      dropped(lost, "worker " + lost.worker().workerId() + " on " + lost.worker().hostname()
          + " left the cluster without a word (it died, froze or lost its network)");
    }
  }

  private void dropped(JobCenter.Lost lost, String cause) {
    String workerId = lost.worker().workerId();
    log.warn("{}; dropped it and {} job(s) from the pool", cause, lost.jobs().size());
    workersMap.remove(workerId);
    for (JobRecord job : lost.jobs()) {
      jobsMap.remove(job.jobId());
      tellGateway(job, cause, true);
    }
    ControlBus.publishLocal(vertx, Addresses.WORKER_LOST, new WorkerLost(workerId, cause));
  }

  private void grant(List<JobCenter.Granted<Promise<Granted>>> granted) {
    for (JobCenter.Granted<Promise<Granted>> g : granted) {
      g.handle().complete(granted(g.job()));
    }
  }

  private Granted granted(JobRecord job) {
    jobsMap.put(job.jobId(), () -> ControlCodec.json(job.state()));
    publishWorker(job.workerId());
    var worker = center.worker(job.workerId()).orElseThrow();
    return new Granted(job.state(), worker.host(), worker.nodeId());
  }

  private void publishWorker(String workerId) {
    workersMap.put(workerId, () -> center.workerState(workerId).map(ControlCodec::json).orElse("{}"));
  }

  private void tellGateway(JobRecord job, String cause, boolean lost) {
    ControlBus.publishLocal(vertx, Addresses.JOB_EVENTS, new JobEnded(job.jobId(), job.clientId(), job.workerId(), cause, lost));
  }

  private String timeoutMessage(Allocate r) {
    String what = type == ClusterType.GPU ? r.gpus() + " vacant GPU(s)" : r.cpus() + " vacant CPU(s)";
    return "no worker had " + what + " within " + (r.timeoutMs() / 1000.0) + " s (" + center.workerCount() + " worker(s), "
        + center.jobs().size() + " job(s) running, " + center.waitingCount() + " other request(s) waiting): "
        + "close actors, add workers, or wait longer (ConnectOptions.resourceWaitTimeout)";
  }

  private Snapshot snapshot() {
    String invariant = "ok";
    try {
      center.checkInvariants();
    } catch (IllegalStateException e) {
      log.error("{}", e.getMessage());
      invariant = e.getMessage();
    }
    return center.snapshot(invariant);
  }
}
