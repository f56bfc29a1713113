package org.parl.client;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.parl.ActorLostException;
import org.parl.ParlException;
import org.parl.wire.JsonLines;

/**
 * The client's control connection to the master's gateway (JSON lines over TCP): requests are
 * matched to answers by id, events (a job ended) go to a handler, and a ping every few seconds
 * keeps the master aware that the client lives. Used on one Vert.x context.
 */
final class GatewayConnection {

  static final long PING_MS = 5_000;

  private final Vertx vertx;
  private final String address;
  private final Map<Long, Promise<JsonObject>> pending = new HashMap<>();
  /** Held for the connection's lifetime: Vert.x closes a client, and its sockets, once unreachable. */
  private NetClient client;
  private NetSocket socket;
  private long nextId = 1;
  private long pingTimer = -1;
  private boolean closed;
  private Consumer<JsonObject> onEvent = e -> {};
  private Consumer<String> onLost = why -> {};

  private GatewayConnection(Vertx vertx, String address) {
    this.vertx = vertx;
    this.address = address;
  }

  /** A client to connect with; creating one loads many classes, so do it off the event loop. */
  static NetClient netClient(Vertx vertx, long timeoutMs) {
    return vertx.createNetClient(new NetClientOptions().setConnectTimeout((int) timeoutMs).setTcpNoDelay(true));
  }

  static Future<GatewayConnection> connect(Vertx vertx, NetClient client, String host, int port) {
    GatewayConnection g = new GatewayConnection(vertx, host + ":" + port);
    g.client = client;
    return client.connect(port, host)
        .recover(e -> Future.failedFuture(new ParlException("cannot reach a parl master at " + host + ":" + port
            + " (" + e.getMessage() + "): start one with 'bin/parl master --port " + port + "', or check the address", e)))
        .map(s -> {
          g.attach(s);
          return g;
        });
  }

  private void attach(NetSocket s) {
    socket = s;
    JsonLines.read(s, this::received, bad -> s.close());
    s.closeHandler(v -> lost("the connection to the master at " + address + " closed: the master stopped or died"));
    pingTimer = vertx.setPeriodic(PING_MS, t -> request("ping", new JsonObject(), PING_MS * 3)
        .onFailure(e -> {
          if (!closed) {
            socket.close();
          }
        }));
  }

  void onEvent(Consumer<JsonObject> handler) {
    this.onEvent = handler;
  }

  void onLost(Consumer<String> handler) {
    this.onLost = handler;
  }

  /** Sends a request; the answer's {@code ok} object, or a failure of the matching exception type. */
  Future<JsonObject> request(String op, JsonObject body, long timeoutMs) {
    if (closed) {
      return Future.failedFuture(new ActorLostException("the connection to the master at " + address + " is closed"));
    }
    long id = nextId++;
    Promise<JsonObject> p = Promise.promise();
    pending.put(id, p);
    long timer = vertx.setTimer(timeoutMs, t -> {
      Promise<JsonObject> expired = pending.remove(id);
      if (expired != null) {
        expired.fail(new ParlException("the master at " + address + " did not answer '" + op + "' within " + timeoutMs / 1000 + " s"));
      }
    });
    JsonLines.write(socket, body.copy().put("op", op).put("id", id));
    return p.future().onComplete(ar -> vertx.cancelTimer(timer));
  }

  private void received(JsonObject msg) {
    if (msg.containsKey("event")) {
      onEvent.accept(msg);
      return;
    }
    Promise<JsonObject> p = msg.getValue("id") instanceof Number n ? pending.remove(n.longValue()) : null;
    if (p == null) {
      return;
    }
    if (msg.getValue("ok") instanceof JsonObject ok) {
      p.complete(ok);
    } else if (msg.getValue("error") instanceof JsonObject err) {
      p.fail(Errors.fromGateway(err));
    } else {
      p.fail(new ParlException("unexpected answer from the master: " + msg.encode()));
    }
  }

  private void lost(String why) {
    boolean wasOpen = !closed;
    closed = true;
    vertx.cancelTimer(pingTimer);
    for (Promise<JsonObject> p : Map.copyOf(pending).values()) {
      p.tryFail(new ActorLostException(why));
    }
    pending.clear();
    if (wasOpen) {
      onLost.accept(why);
    }
  }

  Future<Void> close() {
    if (closed) {
      return Future.succeededFuture();
    }
    closed = true;
    vertx.cancelTimer(pingTimer);
    return socket.close().eventually(() -> client.close());
  }
}
