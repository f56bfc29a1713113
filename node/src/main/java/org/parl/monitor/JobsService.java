package org.parl.monitor;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.parl.cluster.Addresses;
import org.parl.cluster.OneJob;
import org.parl.control.ControlBus;
import org.parl.control.ControlReply.JobLog;
import org.parl.control.Failures;
import org.parl.control.JobView;
import org.parl.control.Request;
import org.parl.control.WorkerRequest.DownloadLog;
import org.parl.control.WorkerRequest.ListJobs;
import org.parl.control.WorkerRequest.ReadLog;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.gateway.Job;

/**
 * Asks the workers about jobs, live and ended: a client's jobs, a job's log tail, a job's whole
 * log. A live job (in the jobs map) is asked at its own verticle on its worker, and at its worker
 * if that has just gone; an ended job is looked for on every worker (then remembered). Ids are
 * checked by {@link ApiParams} before they get here.
 */
final class JobsService {

  private static final long WORKER_TIMEOUT_MS = 5_000;
  private static final long DOWNLOAD_TIMEOUT_MS = 30_000;
  private static final int REMEMBERED_JOBS = 10_000;

  private final Vertx vertx;
  private final ClusterReader reader;
  /** Job id to the worker that ran it, learned from answers. */
  private final Map<String, String> homes = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
      return size() > REMEMBERED_JOBS;
    }
  };

  JobsService(Vertx vertx, ClusterReader reader) {
    this.vertx = vertx;
    this.reader = reader;
  }

  /** {@code {client, jobs:[...], unansweredWorkers:[...]}}; 404 for a client nobody knows. */
  Future<JsonObject> ofClient(String clientId) {
    return reader.read().compose(state -> {
      List<String> workers = aliveWorkers(state);
      List<Future<List<JobView>>> asked = workers.stream()
          .map(w -> ControlBus.request(vertx, Addresses.worker(w), new ListJobs(), WORKER_TIMEOUT_MS).map(l -> l.jobs()))
          .toList();
      return Future.join(asked).transform(ignored -> {
        List<JsonObject> jobs = new ArrayList<>();
        JsonArray unanswered = new JsonArray();
        for (int i = 0; i < workers.size(); i++) {
          String workerId = workers.get(i);
          Future<List<JobView>> answer = asked.get(i);
          if (answer.failed()) {
            unanswered.add(workerId);
            continue;
          }
          for (JobView j : answer.result()) {
            if (clientId.equals(j.job().clientId())) {
              homes.put(j.job().jobId(), workerId);
              jobs.add(describe(shown(j), workerId, state));
            }
          }
        }
        JsonObject client = state.clients().get(clientId);
        if (client == null && jobs.isEmpty()) {
          return Future.failedFuture(ApiError.notFound("no client " + clientId + " is connected or ran jobs here"));
        }
        jobs.sort(Comparator.comparingLong(j -> ClusterView.jobNumber(j.getString("jobId"))));
        return Future.succeededFuture(new JsonObject()
            .put("clientId", clientId)
            .put("client", client)
            .put("jobs", new JsonArray(new ArrayList<>(jobs)))
            .put("unansweredWorkers", unanswered));
      });
    });
  }

  /** The job's record with {@code log}: its last {@code lines} lines. */
  Future<JsonObject> log(String jobId, int lines) {
    return onItsWorker(jobId, new ReadLog(jobId, lines), WORKER_TIMEOUT_MS);
  }

  /** The job's record with {@code log}: the whole file, up to the worker's download cap. */
  Future<JsonObject> download(String jobId) {
    return onItsWorker(jobId, new DownloadLog(jobId), DOWNLOAD_TIMEOUT_MS);
  }

  private Future<JsonObject> onItsWorker(String jobId, Request<JobLog> request, long timeoutMs) {
    return reader.read().compose(state -> {
      JsonObject live = state.jobs().get(jobId);
      String home = live != null ? live.getString("workerId") : homes.get(jobId);
      if (home != null && state.workerAlive(home)) {
        Future<JsonObject> answer = live == null ? ask(home, request, timeoutMs)
            : OneJob.request(vertx, home, jobId, request, timeoutMs).map(JobsService::withLog);
        return answer
            .map(j -> describe(j, home, state))
            .recover(e -> Future.failedFuture(asApiError(e, jobId, home)));
      }
      return everywhere(jobId, request, timeoutMs, state);
    });
  }

  /** Asks every worker; the one that knows the job answers, the others say 404. */
  private Future<JsonObject> everywhere(String jobId, Request<JobLog> request, long timeoutMs, ClusterState state) {
    List<String> workers = aliveWorkers(state);
    List<Future<JsonObject>> asked = workers.stream().map(w -> ask(w, request, timeoutMs)).toList();
    return Future.join(asked).transform(ignored -> {
      Throwable other = null;
      for (int i = 0; i < workers.size(); i++) {
        Future<JsonObject> answer = asked.get(i);
        if (answer.succeeded()) {
          homes.put(jobId, workers.get(i));
          return Future.succeededFuture(describe(answer.result(), workers.get(i), state));
        }
        if (Failures.kindOf(answer.cause()) != ErrorKind.NOT_FOUND) {
          other = answer.cause();
        }
      }
      return Future.failedFuture(other == null
          ? ApiError.notFound("no worker knows job " + jobId)
          : new ApiError(502, "job " + jobId + " was not found, and a worker did not answer: " + other.getMessage()));
    });
  }

  private static JsonObject describe(JsonObject job, String workerId, ClusterState state) {
    JsonObject w = state.workers().get(workerId);
    return job.copy().put("workerId", workerId).put("hostname", w == null ? null : w.getString("hostname"));
  }

  /**
   * A job process as the API shows it: flat, the job's fields beside the process's, as the web pages
   * read them (docs/contract.md §6), though the worker sends the job as one record.
   */
  static JsonObject shown(JobView view) {
    Job job = view.job();
    return new JsonObject()
        .put("jobId", job.jobId())
        .put("slot", view.slot())
        .put("clientId", job.clientId())
        .put("actorClass", job.actorClass())
        .put("pid", view.pid())
        .put("state", view.state())
        .put("gpus", new JsonArray(new ArrayList<>(job.gpus())))
        .put("memoryLimitMb", view.memoryLimitMb())
        .put("startedAt", view.startedAt())
        .put("endedAt", view.endedAt())
        .put("calls", view.calls())
        .put("cause", view.cause());
  }

  private static List<String> aliveWorkers(ClusterState state) {
    return state.workers().keySet().stream().filter(state::workerAlive).sorted().toList();
  }

  /** A job's log from one worker, as the API shows it: the job's fields and {@code log}. */
  private Future<JsonObject> ask(String workerId, Request<JobLog> request, long timeoutMs) {
    return ControlBus.request(vertx, Addresses.worker(workerId), request, timeoutMs).map(JobsService::withLog);
  }

  /** The job's record as the API shows it, with the log text that came with it. */
  private static JsonObject withLog(JobLog answer) {
    return shown(answer.job()).put("log", answer.log());
  }

  private static ApiError asApiError(Throwable e, String jobId, String workerId) {
    if (e instanceof ReplyException re) {
      if (re.failureType() == ReplyFailure.RECIPIENT_FAILURE && re.failureCode() == ErrorKind.NOT_FOUND.code()) {
        return ApiError.notFound("worker " + workerId + " knows no job " + jobId);
      }
      if (re.failureType() == ReplyFailure.TIMEOUT) {
        return new ApiError(504, "worker " + workerId + " did not answer about job " + jobId + " in time");
      }
      if (re.failureType() == ReplyFailure.NO_HANDLERS) {
        return new ApiError(502, "worker " + workerId + " of job " + jobId + " is gone");
      }
    }
    return new ApiError(502, "worker " + workerId + " failed to answer about job " + jobId + ": " + e.getMessage());
  }
}
