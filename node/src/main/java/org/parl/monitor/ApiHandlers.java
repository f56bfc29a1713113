package org.parl.monitor;

import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.function.Supplier;
import org.parl.limits.LimitSettings;

/**
 * The monitor's HTTP API (docs/contract.md §6): the cluster view, a client's jobs, job logs, Prometheus
 * metrics and the statistics history. Parameters go through {@link ApiParams} first.
 */
final class ApiHandlers {

  private final ClusterWatch watch;
  private final JobsService jobs;
  private LimitSettings limits = LimitSettings.DEFAULTS;

  ApiHandlers(ClusterWatch watch, JobsService jobs) {
    this.watch = watch;
    this.jobs = jobs;
  }

  /** The caps {@code /metrics} reports, once read from the limits file. */
  void limits(LimitSettings read) {
    limits = read;
  }

  /** {@code GET /api/cluster}. */
  void cluster(RoutingContext ctx) {
    reply(ctx, watch::refresh);
  }

  /** {@code GET /api/waiting}: the creates waiting for resources, each with why (docs/contract.md §4.1). */
  void waiting(RoutingContext ctx) {
    reply(ctx, watch::waiting);
  }

  /**
   * {@code POST /api/drain} with a JSON body {@code {"worker": ID, "gpu": N or absent, "drained": true|false}}:
   * an operator (who holds the token or a session) takes a worker or one of its GPUs out of service,
   * or puts it back. JSON only: a form that another site posts cannot carry it, and the session
   * cookie is {@code SameSite=Strict} besides.
   */
  void drain(RoutingContext ctx) {
    Future<Void> f;
    try {
      ApiParams.Drain d = ApiParams.drain(ctx.request().getHeader(HttpHeaders.CONTENT_TYPE), ctx.body().asString());
      f = watch.drain(d.workerId(), d.gpu(), d.drained());
    } catch (ApiError e) {
      f = Future.failedFuture(e);
    }
    f.onSuccess(v -> HttpReplies.json(ctx, new JsonObject().put("ok", true)))
        .onFailure(e -> HttpReplies.failure(ctx, e));
  }

  /** {@code GET /api/history}: recent statistics per worker, for the charts. */
  void history(RoutingContext ctx) {
    HttpReplies.json(ctx, watch.history());
  }

  /** {@code GET /api/jobs?client=ID}. */
  void jobsOfClient(RoutingContext ctx) {
    reply(ctx, () -> jobs.ofClient(ApiParams.clientId(ctx.queryParam("client"))));
  }

  /** {@code GET /api/jobs/:id/log?lines=N}. */
  void log(RoutingContext ctx) {
    reply(ctx, () -> {
      String jobId = ApiParams.jobId(ctx.pathParam("id"));
      return jobs.log(jobId, ApiParams.lines(ctx.queryParam("lines")));
    });
  }

  /** {@code GET /api/jobs/:id/log/download}: the whole log as a text attachment. */
  void download(RoutingContext ctx) {
    Future<JsonObject> f;
    try {
      f = jobs.download(ApiParams.jobId(ctx.pathParam("id")));
    } catch (ApiError e) {
      f = Future.failedFuture(e);
    }
    f.onSuccess(job -> ctx.response()
            .putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; charset=utf-8")
            .putHeader("Content-Disposition", "attachment; filename=\"" + job.getString("jobId") + ".log\"")
            .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
            .end(job.getString("log", "")))
        .onFailure(e -> HttpReplies.failure(ctx, e));
  }

  /** {@code GET /metrics}. */
  void metrics(RoutingContext ctx) {
    watch.refresh()
        .onSuccess(view -> ctx.response()
            .putHeader(HttpHeaders.CONTENT_TYPE, PrometheusText.CONTENT_TYPE)
            .end(PrometheusText.format(view, limits)))
        .onFailure(e -> HttpReplies.failure(ctx, e));
  }

  /** First on every request: paths that climb with {@code ..} are unknown, whatever they name. */
  void refuseTraversal(RoutingContext ctx) {
    if (ApiParams.traverses(ctx.request().path())) {
      HttpReplies.error(ctx, 404, "no such path: " + ApiParams.quote(ctx.request().path()));
    } else {
      ctx.next();
    }
  }

  /** Any other {@code /api/...} path. */
  void unknown(RoutingContext ctx) {
    HttpReplies.error(ctx, 404, "no such API: " + ApiParams.quote(ctx.normalizedPath())
        + "; see /api/cluster, /api/waiting, /api/jobs?client=ID, /api/jobs/ID/log, /api/jobs/ID/log/download, /metrics");
  }

  private static void reply(RoutingContext ctx, Supplier<Future<JsonObject>> work) {
    Future<JsonObject> f;
    try {
      f = work.get();
    } catch (ApiError e) {
      f = Future.failedFuture(e);
    }
    f.onSuccess(body -> HttpReplies.json(ctx, body)).onFailure(e -> HttpReplies.failure(ctx, e));
  }
}
