package org.parl.master;

import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetSocket;
import java.util.LinkedHashMap;
import java.util.Map;
import org.parl.cluster.Failure;
import org.parl.wire.JsonLines;

/**
 * One connection to the master's gateway. A client's session lives as long as its socket: when
 * it closes, the client is gone and its jobs are stopped. Touched only on the gateway's context.
 */
final class ClientSession {

  private final NetSocket socket;
  private final long connectedAt = System.currentTimeMillis();
  private final Map<String, String> jobs = new LinkedHashMap<>();
  private String clientId;
  private JsonObject hello;
  private boolean closed;

  ClientSession(NetSocket socket) {
    this.socket = socket;
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

  void becomeClient(String id, JsonObject helloMessage) {
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

  void reply(long id, JsonObject result) {
    send(new JsonObject().put("id", id).put("ok", result));
  }

  void replyError(Object id, Failure kind, String message) {
    send(new JsonObject().put("id", id).put("error", new JsonObject().put("kind", kind.name()).put("message", message)));
  }

  void event(String name, JsonObject body) {
    send(body.copy().put("event", name));
  }

  private void send(JsonObject msg) {
    if (!closed) {
      JsonLines.write(socket, msg);
    }
  }

  void close() {
    socket.close();
  }

  /** The record published in the clients map and shown by the monitor. */
  JsonObject record() {
    return new JsonObject()
        .put("id", clientId)
        .put("hostname", hello.getString("hostname", "?"))
        .put("program", hello.getString("program", "?"))
        .put("pid", hello.getValue("pid"))
        .put("address", socket.remoteAddress().hostAddress())
        .put("actors", jobs.size())
        .put("jobs", new io.vertx.core.json.JsonArray(java.util.List.copyOf(jobs.keySet())))
        .put("connectedAt", connectedAt);
  }
}
