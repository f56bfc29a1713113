package org.parl.worker;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.parl.cluster.Addresses;
import org.parl.cluster.ClusterNode;
import org.parl.cluster.Failure;
import org.parl.cluster.Fields;
import org.parl.cluster.MapPublisher;
import org.parl.cluster.Ops;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's presence in the cluster: registers what it lends with the JobCenter, starts a job
 * process for each actor the master places here (from a warm pool when it can), reports each
 * job's end with its cause, and answers log requests on {@code parl.worker.<id>}.
 */
public final class WorkerVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(WorkerVerticle.class);
  private static final long REGISTER_RETRY_MS = 200;
  private static final long REGISTER_DEADLINE_MS = 20_000;
  static final long STATS_MS = 2_000;
  static final long WARM_REFILL_DELAY_MS = 300;

  private final ClusterNode node;
  private final WorkerSettings settings;
  private JobSupervisor jobs;
  private MapPublisher stats;
  private boolean warming;
  private boolean readingStats;
  /** Calls served by jobs that have ended, so that the total never goes down. */
  private long endedCalls;

  public WorkerVerticle(ClusterNode node, WorkerSettings settings) {
    this.node = node;
    this.settings = settings;
  }

  @Override
  public Future<?> start() {
    jobs = new JobSupervisor(vertx, context, settings, this::jobEnded, this::topUpWarm);
    Ops ops = new Ops("worker " + settings.workerId(), log)
        .on("launch", this::launch)
        .on("kill", this::kill)
        .on("log", this::log)
        .on("download", this::download)
        .on("jobs", body -> Future.succeededFuture(jobList()));
    return jobs.start()
        .compose(v -> vertx.eventBus().consumer(Addresses.worker(settings.workerId()), ops::handle).completion())
        .compose(v -> register())
        .onSuccess(v -> {
          stats = new MapPublisher(vertx, Addresses.STATS_MAP);
          vertx.setPeriodic(0, STATS_MS, t -> publishStats());
          topUpWarm();
        });
  }

  /** Host statistics for the monitor and /metrics, in the stats map (this worker is its writer). */
  private void publishStats() {
    if (readingStats) {
      return;
    }
    readingStats = true;
    vertx.executeBlocking(() -> HostStats.read(settings)).onComplete(ar -> {
      readingStats = false;
      if (ar.succeeded()) {
        long live = jobs.liveProcesses().mapToLong(p -> p.calls).sum();
        JsonObject s = ar.result().put("callsServed", endedCalls + live);
        stats.put(settings.workerId(), () -> s);
      }
    });
  }

  @Override
  public Future<?> stop() {
    jobs.killAll();
    if (stats != null) {
      stats.remove(settings.workerId());
    }
    return Future.succeededFuture();
  }

  private Future<JsonObject> launch(JsonObject job) {
    Fields.string(job, "jobId");
    Fields.string(job, "clientId");
    List<Integer> gpus = Fields.idList(job, "gpus", settings.gpus().size());
    int memoryLimitMb = Fields.optionalInteger(job, "maxMemoryMb", 0, 1 << 24, 0);
    if (!settings.gpus().containsAll(gpus)) {
      return Failure.INVALID.future("worker " + settings.workerId() + " does not lend GPU(s) " + gpus);
    }
    JobProcess p = memoryLimitMb == 0 && gpus.size() <= 1
        ? jobs.warm(gpus).orElseGet(() -> jobs.spawn(gpus, 0, false))
        : jobs.spawn(gpus, memoryLimitMb, false);
    jobs.reserve(p, job);
    // while other warm processes are ready, start the replacement a moment later: a JVM start
    // takes both cores of a small host, and the client is still setting its new actor up
    if (jobs.warm(gpus).isPresent()) {
      vertx.setTimer(WARM_REFILL_DELAY_MS, t -> topUpWarm());
    } else {
      topUpWarm();
    }
    return p.ready.future().map(ready -> {
      jobs.assign(ready);
      return new JsonObject()
          .put("host", settings.host())
          .put("port", ready.port)
          .put("token", ready.token)
          .put("pid", ready.pid())
          .put("slot", ready.slot);
    });
  }

  private Future<JsonObject> kill(JsonObject body) {
    String jobId = Fields.string(body, "jobId");
    String cause = Fields.optionalString(body, "cause", "stopped by the master");
    return jobs.kill(jobId, cause) ? Ops.ok() : Failure.NOT_FOUND.future("no job " + jobId + " runs on worker " + settings.workerId());
  }

  private Future<JsonObject> log(JsonObject body) {
    String jobId = Fields.string(body, "jobId");
    int lines = Fields.optionalInteger(body, "lines", 1, LogTail.MAX_LINES, 500);
    return jobs.job(jobId)
        .map(p -> vertx.executeBlocking(() -> LogTail.read(p.log, lines)).map(text -> p.toJson().put("log", text)))
        .orElseGet(() -> Failure.NOT_FOUND.future("worker " + settings.workerId() + " knows no job " + jobId));
  }

  /** The whole log of a job (its last {@value LogTail#MAX_DOWNLOAD_BYTES} bytes if longer), for the monitor. */
  private Future<JsonObject> download(JsonObject body) {
    String jobId = Fields.string(body, "jobId");
    return jobs.job(jobId)
        .map(p -> vertx.executeBlocking(() -> LogTail.readAll(p.log, LogTail.MAX_DOWNLOAD_BYTES))
            .map(text -> p.toJson().put("log", text)))
        .orElseGet(() -> Failure.NOT_FOUND.future("worker " + settings.workerId() + " knows no job " + jobId));
  }

  private JsonObject jobList() {
    JsonArray list = new JsonArray();
    jobs.jobs().forEach(p -> list.add(p.toJson()));
    return new JsonObject().put("jobs", list);
  }

  private void jobEnded(JobProcess p, boolean abnormal) {
    endedCalls += p.calls;
    if (jobs.stopping()) {
      return; // the JobCenter drops this worker's jobs when it leaves the cluster
    }
    JsonObject end = new JsonObject()
        .put("jobId", p.jobId)
        .put("workerId", settings.workerId())
        .put("cause", p.endCause)
        .put("lost", abnormal);
    vertx.eventBus().request(Addresses.JOB_CENTER, end, new DeliveryOptions().addHeader(Ops.OP, "end").setSendTimeout(30_000))
        .onFailure(e -> log.warn("could not report the end of job {} to the JobCenter: {}", p.jobId, e.getMessage()));
    topUpWarm();
  }

  /**
   * Keeps warm processes ready, one start at a time so that a small host is not swamped: on a CPU
   * cluster {@code warmJobs} generic ones, on a GPU cluster one per GPU no job holds.
   */
  private void topUpWarm() {
    if (warming || settings.warmJobs() <= 0) {
      return;
    }
    List<Integer> next = nextWarm();
    if (next == null) {
      return;
    }
    warming = true;
    jobs.spawn(next, 0, true).ready.future().onComplete(ar -> {
      warming = false;
      if (jobs.stopping()) {
        return;
      }
      if (ar.failed()) {
        log.warn("a warm job process failed to start: {}", ar.cause().getMessage());
        vertx.setTimer(5_000, t -> topUpWarm());
      } else {
        topUpWarm();
      }
    });
  }

  private List<Integer> nextWarm() {
    if (settings.gpus().isEmpty()) {
      long warm = jobs.liveProcesses().filter(p -> p.warm() && p.memoryLimitMb == 0).count();
      return warm < settings.warmJobs() ? List.of() : null;
    }
    Set<Integer> covered = new HashSet<>();
    jobs.liveProcesses().forEach(p -> {
      if (!p.warm() || p.gpus.size() == 1) {
        covered.addAll(p.gpus);
      }
    });
    for (int gpu : settings.gpus()) {
      if (!covered.contains(gpu)) {
        return List.of(gpu);
      }
    }
    return null;
  }

  private Future<Object> register() {
    JsonObject body = new JsonObject()
        .put("workerId", settings.workerId())
        .put("nodeId", node.nodeId())
        .put("hostname", settings.hostname())
        .put("host", settings.host())
        .put("cpus", settings.cpus())
        .put("gpus", new JsonArray(settings.gpus()))
        .put("gpuDevices", settings.gpuDevices());
    Promise<Object> done = Promise.promise();
    attemptRegister(body, System.currentTimeMillis() + REGISTER_DEADLINE_MS, done);
    return done.future();
  }

  /**
   * The first send from a freshly joined node can find no handler while the subscription map is
   * still migrating (DESIGN-NOTES), so "no handlers" is retried for a while; a refusal is final.
   */
  private void attemptRegister(JsonObject body, long deadline, Promise<Object> done) {
    DeliveryOptions opts = new DeliveryOptions().addHeader(Ops.OP, "register").setSendTimeout(10_000);
    vertx.eventBus().request(Addresses.JOB_CENTER, body, opts).map(Message::body).onComplete(ar -> {
      if (ar.succeeded()) {
        done.complete(ar.result());
      } else if (ar.cause() instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS
          && System.currentTimeMillis() < deadline) {
        vertx.setTimer(REGISTER_RETRY_MS, t -> attemptRegister(body, deadline, done));
      } else {
        done.fail(ar.cause());
      }
    });
  }
}
