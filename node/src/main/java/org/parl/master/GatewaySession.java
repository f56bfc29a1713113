package org.parl.master;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetSocket;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.parl.internal.wire.Checks;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.gateway.GatewayCodec;
import org.parl.internal.wire.gateway.GatewayReply;
import org.parl.internal.wire.gateway.GatewayRequest.ClientHello;
import org.parl.limits.WriteBound;

/**
 * One connection to the master's gateway. Nothing is served to it before it has authenticated
 * ({@link GatewayDoor}). A client's session lives as long as its socket: when it closes, the client
 * is gone and its jobs are stopped. Touched only on the gateway's context.
 */
final class GatewaySession {

  private final NetSocket socket;
  private final WriteBound out;
  /** The member UUID of this gateway's master, named in the client's record. */
  private final String gateway;
  private final long connectedAt = System.currentTimeMillis();
  /** The client's jobs: job id to the worker that runs it. */
  private final Map<String, String> jobs = new LinkedHashMap<>();
  private String clientId;
  private ClientHello hello;
  private boolean authenticated;
  private boolean closed;
  private Runnable onAuthenticated = () -> { };

  /** A session whose replies are bounded ({@link WriteBound}): a peer that does not read them is disconnected. */
  GatewaySession(Vertx vertx, NetSocket socket, String gateway) {
    this.socket = socket;
    this.gateway = gateway;
    this.out = new WriteBound(vertx, socket, socket, "gateway peer " + socket.remoteAddress(), () -> WriteBound.abort(socket));
  }

  String clientId() {
    return clientId;
  }

  boolean isClient() {
    return clientId != null;
  }

  boolean closed() {
    return closed;
  }

  NetSocket socket() {
    return socket;
  }

  /** The peer's address, for log lines. */
  String peer() {
    return String.valueOf(socket.remoteAddress());
  }

  boolean authenticated() {
    return authenticated;
  }

  void markAuthenticated() {
    authenticated = true;
    onAuthenticated.run();
  }

  /** Runs {@code action} once the peer has authenticated. */
  void onAuthenticated(Runnable action) {
    onAuthenticated = action;
  }

  /** The program its client's hello named ("?" before the hello). */
  String program() {
    return hello == null ? "?" : hello.program();
  }

  void becomeClient(String id, ClientHello helloMessage) {
    this.clientId = id;
    this.hello = helloMessage;
  }

  void markClosed() {
    closed = true;
  }

  void addJob(String jobId, String workerId) {
    jobs.put(jobId, workerId);
  }

  /** Forgets a job; returns its worker, or null if the job was not this client's. */
  String removeJob(String jobId) {
    return jobs.remove(jobId);
  }

  Map<String, String> jobs() {
    return Map.copyOf(jobs);
  }

  void send(GatewayReply reply) {
    if (!closed) {
      byte[] json = GatewayCodec.encode(reply);
      out.write(Buffer.buffer(json.length + 1).appendBytes(json).appendByte((byte) '\n'));
    }
  }

  void fail(Long requestId, ErrorKind kind, String message) {
    String text = message == null || message.isEmpty() ? kind + " failure" : message;
    if (text.length() > Checks.MAX_TEXT) {
      text = text.substring(0, Checks.MAX_TEXT);
    }
    send(new GatewayReply.Failed(requestId, kind, text));
  }

  /** Sends the one refusal of a peer that did not authenticate, then closes the connection. */
  void refuse(Long requestId, String message) {
    refuse(requestId, ErrorKind.UNAUTHENTICATED, message);
  }

  /** Sends one refusal of {@code kind}, then closes the connection. */
  void refuse(Long requestId, ErrorKind kind, String message) {
    if (!closed) {
      closed = true;
      socket.write(Buffer.buffer(GatewayCodec.encode(new GatewayReply.Failed(requestId, kind, message)))
          .appendByte((byte) '\n')).onComplete(ar -> socket.close());
    }
  }

  /** The record published in the clients map and shown by the monitor, as JSON text. */
  String record() {
    return new JsonObject()
        .put("id", clientId)
        .put("hostname", hello.hostname())
        .put("program", hello.program())
        .put("pid", hello.pid())
        .put("address", socket.remoteAddress().hostAddress())
        .put("actors", jobs.size())
        .put("jobs", new JsonArray(List.copyOf(jobs.keySet())))
        .put("connectedAt", connectedAt)
        .put("gateway", gateway)
        .encode();
  }

  /** The gateway member named by a client record ({@link #record()}), or null. */
  static String gatewayOf(String record) {
    try {
      return new JsonObject(record).getString("gateway");
    } catch (RuntimeException e) {
      return null;
    }
  }
}
