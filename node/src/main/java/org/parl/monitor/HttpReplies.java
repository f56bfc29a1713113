package org.parl.monitor;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Writes the monitor's JSON answers and JSON errors. */
final class HttpReplies {

  private static final Logger log = LoggerFactory.getLogger(HttpReplies.class);

  private HttpReplies() {}

  static void json(RoutingContext ctx, JsonObject body) {
    if (!ctx.response().ended()) {
      ctx.response()
          .putHeader(HttpHeaders.CONTENT_TYPE, "application/json; charset=utf-8")
          .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
          .end(body.encode());
    }
  }

  static void error(RoutingContext ctx, int status, String message) {
    if (!ctx.response().ended()) {
      ctx.response()
          .setStatusCode(status)
          .putHeader(HttpHeaders.CONTENT_TYPE, "application/json; charset=utf-8")
          .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
          .end(new JsonObject().put("error", message).encode());
    }
  }

  /** Answers a failed request: an {@link ApiError} with its status, anything else with 500. */
  static void failure(RoutingContext ctx, Throwable t) {
    if (t instanceof ApiError e) {
      error(ctx, e.status(), e.getMessage());
    } else {
      log.warn("monitor request {} failed: {}", ctx.normalizedPath(), t.toString());
      error(ctx, 500, "the monitor failed: " + t.getMessage());
    }
  }
}
