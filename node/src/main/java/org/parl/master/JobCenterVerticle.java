package org.parl.master;

import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.parl.cluster.Addresses;
import org.parl.cluster.ClusterNode;
import org.parl.cluster.ClusterType;
import org.parl.cluster.Failure;
import org.parl.cluster.Fields;
import org.parl.cluster.MapPublisher;
import org.parl.cluster.Ops;
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
  private static final DeliveryOptions LOCAL = new DeliveryOptions().setLocalOnly(true);

  private final ClusterNode node;
  private final ClusterType type;
  private final int maxGpusPerActor;
  private JobCenter<Promise<JsonObject>> center;
  private MapPublisher workersMap;
  private MapPublisher jobsMap;

  public JobCenterVerticle(ClusterNode node, ClusterType type, int maxGpusPerActor) {
    this.node = node;
    this.type = type;
    this.maxGpusPerActor = maxGpusPerActor;
  }

  @Override
  public Future<?> start() {
    center = new JobCenter<>(type, maxGpusPerActor);
    workersMap = new MapPublisher(vertx, Addresses.WORKERS_MAP);
    jobsMap = new MapPublisher(vertx, Addresses.JOBS_MAP);
    node.onMemberRemoved((nodeId, role) -> context.runOnContext(v -> nodeGone(nodeId)));
    Ops ops = new Ops("the JobCenter", log)
        .on("register", this::register)
        .on("unregister", this::unregister)
        .on("allocate", this::allocate)
        .on("end", this::end)
        .on("cancel", this::cancel)
        .on("snapshot", body -> Future.succeededFuture(snapshot()))
        .on("queue", body -> Future.succeededFuture(new JsonObject()
            .put("waiting", center.waitingCount())
            .put("longestWaitMs", center.longestWaitMillis())));
    return vertx.eventBus().consumer(Addresses.JOB_CENTER, ops::handle).completion();
  }

  private Future<JsonObject> register(JsonObject body) {
    WorkerInfo w = WorkerInfo.fromJson(body);
    List<JobCenter.Granted<Promise<JsonObject>>> granted;
    try {
      granted = center.register(w);
    } catch (Rejected r) {
      log.warn("refused worker {} from {}: {}", w.workerId(), w.hostname(), r.getMessage());
      return r.kind().future(r.getMessage());
    }
    log.info("worker {} joined from {} ({}): {}", w.workerId(), w.hostname(), w.host(),
        type == ClusterType.GPU ? "GPUs " + w.gpus() : w.cpus() + " CPUs");
    publishWorker(w.workerId());
    grant(granted);
    return Future.succeededFuture(new JsonObject().put("clusterType", type.label()));
  }

  private Future<JsonObject> unregister(JsonObject body) {
    String workerId = Fields.string(body, "workerId");
    if (center.worker(workerId).isEmpty()) {
      return Failure.NOT_FOUND.future("no worker " + workerId + " is registered");
    }
    center.removeWorker(workerId).ifPresent(lost -> dropped(lost, "worker " + workerId + " stopped"));
    return Ops.ok();
  }

  private Future<JsonObject> allocate(JsonObject body) {
    JobRequest request = JobRequest.fromJson(body);
    Promise<JsonObject> reply = Promise.promise();
    JobCenter.Submitted submitted;
    try {
      submitted = center.submit(request, reply);
    } catch (Rejected r) {
      return r.kind().future(r.getMessage());
    }
    if (submitted.job().isPresent()) {
      return Future.succeededFuture(granted(submitted.job().get()));
    }
    long requestId = submitted.requestId();
    long timer = vertx.setTimer(Math.max(1, request.timeoutMs()), t ->
        center.timeout(requestId).ifPresent(p -> p.fail(Failure.RESOURCE.exception(timeoutMessage(request)))));
    return reply.future().onComplete(ar -> vertx.cancelTimer(timer));
  }

  private Future<JsonObject> end(JsonObject body) {
    String jobId = Fields.string(body, "jobId");
    String workerId = Fields.optionalString(body, "workerId", null);
    String cause = Fields.optionalString(body, "cause", "ended");
    boolean lost = body.getValue("lost") instanceof Boolean b && b;
    var job = center.job(jobId);
    if (job.isEmpty() || (workerId != null && !job.get().workerId().equals(workerId))) {
      return Failure.NOT_FOUND.future("no job " + jobId + (workerId != null ? " on worker " + workerId : "") + " holds resources");
    }
    center.end(jobId);
    jobsMap.remove(jobId);
    publishWorker(job.get().workerId());
    tellGateway(job.get(), cause, lost);
    grant(center.drain());
    return Ops.ok();
  }

  private Future<JsonObject> cancel(JsonObject body) {
    String clientId = Fields.string(body, "clientId");
    List<Promise<JsonObject>> cancelled = center.cancelClient(clientId);
    cancelled.forEach(p -> p.tryFail(Failure.LOST.exception("client " + clientId + " disconnected")));
    grant(center.drain());
    return Future.succeededFuture(new JsonObject().put("cancelled", cancelled.size()));
  }

  private void nodeGone(String nodeId) {
    for (JobCenter.Lost lost : center.removeNode(nodeId)) {
      dropped(lost, "worker " + lost.worker().workerId() + " on " + lost.worker().hostname() + " died");
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
    vertx.eventBus().publish(Addresses.WORKER_LOST, new JsonObject().put("workerId", workerId).put("cause", cause), LOCAL);
  }

  private void grant(List<JobCenter.Granted<Promise<JsonObject>>> granted) {
    for (JobCenter.Granted<Promise<JsonObject>> g : granted) {
      g.handle().complete(granted(g.job()));
    }
  }

  private JsonObject granted(JobRecord job) {
    jobsMap.put(job.jobId(), job::toJson);
    publishWorker(job.workerId());
    JsonObject reply = job.toJson();
    center.worker(job.workerId()).ifPresent(w -> reply.put("host", w.host()).put("workerNodeId", w.nodeId()));
    return reply;
  }

  private void publishWorker(String workerId) {
    workersMap.put(workerId, () -> center.workerRecord(workerId).orElseGet(JsonObject::new));
  }

  private void tellGateway(JobRecord job, String cause, boolean lost) {
    vertx.eventBus().publish(Addresses.JOB_EVENTS, new JsonObject()
        .put("jobId", job.jobId())
        .put("clientId", job.clientId())
        .put("workerId", job.workerId())
        .put("cause", cause)
        .put("lost", lost), LOCAL);
  }

  private String timeoutMessage(JobRequest r) {
    String what = type == ClusterType.GPU ? r.gpus() + " vacant GPU(s)" : r.cpus() + " vacant CPU(s)";
    return "no worker had " + what + " within " + (r.timeoutMs() / 1000.0) + " s (" + center.workerCount() + " worker(s), "
        + center.jobs().size() + " job(s) running, " + center.waitingCount() + " other request(s) waiting): "
        + "close actors, add workers, or wait longer (ConnectOptions.resourceWaitTimeout)";
  }

  private JsonObject snapshot() {
    JsonObject s = center.snapshot();
    try {
      center.checkInvariants();
      s.put("invariant", "ok");
    } catch (IllegalStateException e) {
      log.error("{}", e.getMessage());
      s.put("invariant", e.getMessage());
    }
    return s;
  }
}
