package org.parl.monitor;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.parl.limits.WriteBound;

/**
 * Server-Sent Events to the open pages: each gets the latest cluster view on connecting and every
 * change after. A page whose connection cannot keep up skips views (the next one replaces them
 * anyway), and one that stays behind is dropped ({@link WriteBound}); closed connections are
 * forgotten. Used from the monitor's context only.
 */
final class EventStream {

  private static final long RETRY_MS = 2_000;

  private final Vertx vertx;
  private final String event;
  private final Map<HttpServerResponse, WriteBound> open = new LinkedHashMap<>();
  private String last;

  EventStream(Vertx vertx, String event) {
    this.vertx = vertx;
    this.event = event;
  }

  void subscribe(RoutingContext ctx) {
    HttpServerResponse r = ctx.response()
        .setChunked(true)
        .putHeader(HttpHeaders.CONTENT_TYPE, "text/event-stream; charset=utf-8")
        .putHeader(HttpHeaders.CACHE_CONTROL, "no-cache")
        .putHeader("X-Accel-Buffering", "no");
    WriteBound bound = new WriteBound(vertx, r, null, "event-stream page " + ctx.request().remoteAddress(), () -> {
      open.remove(r);
      WriteBound.abort(ctx.request().connection());
    });
    open.put(r, bound);
    r.closeHandler(v -> open.remove(r));
    r.exceptionHandler(e -> open.remove(r));
    bound.write(Buffer.buffer("retry: " + RETRY_MS + "\n\n"));
    if (last != null) {
      bound.write(Buffer.buffer(frame(last)));
    }
  }

  /** Sends {@code data} (one line of JSON) to every page, unless it is what they already have. */
  void publish(String data) {
    if (data.equals(last)) {
      return;
    }
    last = data;
    sendAll(frame(data));
  }

  /** A comment line, so that proxies and browsers see the connection is alive. */
  void heartbeat() {
    sendAll(": keep-alive\n\n");
  }

  /** Writes to each page that is not behind; one that stays behind past a grace is dropped. */
  private void sendAll(String text) {
    Buffer frame = Buffer.buffer(text);
    for (Map.Entry<HttpServerResponse, WriteBound> e : List.copyOf(open.entrySet())) {
      if (!e.getKey().writeQueueFull()) {
        e.getValue().write(frame.copy());
      }
    }
  }

  int size() {
    return open.size();
  }

  void closeAll() {
    for (HttpServerResponse r : List.copyOf(open.keySet())) {
      r.end();
    }
    open.clear();
  }

  private String frame(String data) {
    return "event: " + event + "\ndata: " + data + "\n\n";
  }
}
