package org.parl.monitor;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Server-Sent Events to the open pages: each gets the latest cluster view on connecting and every
 * change after. A page whose connection cannot keep up skips views (the next one replaces them
 * anyway); closed connections are forgotten. Used from the monitor's context only.
 */
final class EventStream {

  private static final long RETRY_MS = 2_000;

  private final String event;
  private final Set<HttpServerResponse> open = new LinkedHashSet<>();
  private String last;

  EventStream(String event) {
    this.event = event;
  }

  void subscribe(RoutingContext ctx) {
    HttpServerResponse r = ctx.response()
        .setChunked(true)
        .putHeader(HttpHeaders.CONTENT_TYPE, "text/event-stream; charset=utf-8")
        .putHeader(HttpHeaders.CACHE_CONTROL, "no-cache")
        .putHeader("X-Accel-Buffering", "no");
    open.add(r);
    r.closeHandler(v -> open.remove(r));
    r.exceptionHandler(e -> open.remove(r));
    r.write("retry: " + RETRY_MS + "\n\n");
    if (last != null) {
      r.write(frame(last));
    }
  }

  /** Sends {@code data} (one line of JSON) to every page, unless it is what they already have. */
  void publish(String data) {
    if (data.equals(last)) {
      return;
    }
    last = data;
    String frame = frame(data);
    for (HttpServerResponse r : open) {
      if (!r.writeQueueFull()) {
        r.write(frame);
      }
    }
  }

  /** A comment line, so that proxies and browsers see the connection is alive. */
  void heartbeat() {
    for (HttpServerResponse r : open) {
      if (!r.writeQueueFull()) {
        r.write(": keep-alive\n\n");
      }
    }
  }

  int size() {
    return open.size();
  }

  void closeAll() {
    for (HttpServerResponse r : Set.copyOf(open)) {
      r.end();
    }
    open.clear();
  }

  private String frame(String data) {
    return "event: " + event + "\ndata: " + data + "\n\n";
  }
}
