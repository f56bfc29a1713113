package org.parl.master;

import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.parl.cluster.Addresses;
import org.parl.cluster.BadMessageException;
import org.parl.cluster.ClusterInfo;
import org.parl.cluster.Failure;
import org.parl.cluster.Fields;
import org.parl.cluster.MapPublisher;
import org.parl.wire.ClassPaths;
import org.parl.wire.JsonLines;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's front door on {@code --port}: joining workers and monitors learn the cluster's
 * Hazelcast address here, {@code parl status} asks for a summary, and clients (which are not
 * cluster members) create actors. A create is a JobCenter allocation followed by a launch on the
 * chosen worker; the answer carries the job's endpoint, which the client then calls directly.
 */
public final class MasterVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(MasterVerticle.class);
  /** Clients ping every few seconds; one silent for this long is considered gone. */
  static final int IDLE_TIMEOUT_S = 20;
  /** A cold job JVM on a busy host can take seconds; a launch that takes longer has failed. */
  static final long LAUNCH_TIMEOUT_MS = 120_000;

  private final Supplier<ClusterInfo> info;
  /** This member's node id: requests to verticles in this same process skip the cluster lookup. */
  private final String nodeId;
  private final String host;
  private final int port;
  private final Map<String, ClientSession> clients = new HashMap<>();
  private final PeerRequests launches = new PeerRequests();
  private MapPublisher clientsMap;
  private JsonArray runtimeJars = new JsonArray();

  private volatile int actualPort;

  /**
   * @param info how to reach the cluster, known once every server of the master is bound (asked
   *     for when a node says hello)
   * @param port the gateway's port; 0 binds a free one (see {@link #port()})
   */
  public MasterVerticle(Supplier<ClusterInfo> info, String nodeId, String host, int port) {
    this.info = info;
    this.nodeId = nodeId;
    this.host = host;
    this.port = port;
  }

  @Override
  public Future<?> start() {
    clientsMap = new MapPublisher(vertx, Addresses.CLIENTS_MAP);
    vertx.eventBus().<JsonObject>localConsumer(Addresses.JOB_EVENTS, m -> onJobEvent(m.body()));
    vertx.eventBus().<JsonObject>localConsumer(Addresses.WORKER_LOST,
        m -> launches.lost(m.body().getString("workerId"), m.body().getString("cause")));
    Future<?> hashed = vertx.executeBlocking(MasterVerticle::runtimeJars).onSuccess(h -> runtimeJars = h);
    Future<?> listening = vertx.createNetServer(new NetServerOptions()
            .setHost(host).setPort(port).setIdleTimeout(IDLE_TIMEOUT_S).setTcpNoDelay(true))
        .connectHandler(this::accept)
        .listen()
        .onSuccess(server -> actualPort = server.actualPort());
    return Future.all(hashed, listening);
  }

  /** The gateway's port once started. */
  public int port() {
    return actualPort;
  }

  /** The jars every job process has (name, size, hash), so that clients do not ship them again. */
  private static JsonArray runtimeJars() throws IOException {
    JsonArray jars = new JsonArray();
    for (Path p : ClassPaths.current()) {
      if (!Files.isDirectory(p)) {
        jars.add(new JsonObject().put("name", p.getFileName().toString()).put("size", Files.size(p))
            .put("hash", ClassPaths.hash(p)));
      }
    }
    return jars;
  }

  private void accept(NetSocket socket) {
    ClientSession session = new ClientSession(socket);
    JsonLines.read(socket, msg -> handle(session, msg),
        bad -> session.replyError(null, Failure.INVALID, bad));
    socket.closeHandler(v -> closed(session));
  }

  private void handle(ClientSession session, JsonObject msg) {
    Object rawId = msg.getValue("id");
    try {
      long id = Fields.longValue(msg, "id", 0, Long.MAX_VALUE);
      String op = Fields.string(msg, "op");
      if (!op.equals("hello") && !session.isClient()) {
        throw new BadMessageException("say hello first: {\"op\":\"hello\",\"role\":\"client\",...}");
      }
      switch (op) {
        case "hello" -> hello(session, id, msg);
        case "create" -> create(session, id, msg);
        case "kill" -> kill(session, id, msg);
        case "ping" -> session.reply(id, new JsonObject());
        default -> throw new BadMessageException("unknown op '" + op + "'; the gateway knows hello, create, kill, ping");
      }
    } catch (BadMessageException e) {
      session.replyError(rawId, Failure.INVALID, e.getMessage());
    }
  }

  private void hello(ClientSession session, long id, JsonObject msg) {
    String role = Fields.string(msg, "role");
    switch (role) {
      case "worker", "monitor" -> session.reply(id, info.get().toJson());
      case "status" -> jobCenter("snapshot", new JsonObject())
          .onSuccess(s -> session.reply(id, info.get().toJson()
              .put("workers", s.getJsonArray("workers"))
              .put("jobs", s.getJsonArray("jobs").size())
              .put("waiting", s.getInteger("waiting"))
              .put("clients", clients.size())))
          .onFailure(e -> session.replyError(id, Failure.of(e), e.getMessage()));
      case "client" -> {
        if (session.isClient()) {
          throw new BadMessageException("this connection already said hello");
        }
        String clientId = "c-" + UUID.randomUUID().toString().substring(0, 8);
        session.becomeClient(clientId, msg);
        clients.put(clientId, session);
        clientsMap.put(clientId, session::record);
        log.info("client {} connected: {} on {}", clientId, msg.getString("program", "?"), msg.getString("hostname", "?"));
        session.reply(id, info.get().toJson().put("clientId", clientId).put("runtime", runtimeJars));
      }
      default -> throw new BadMessageException("role must be client, worker, monitor or status, not " + role);
    }
  }

  private void create(ClientSession session, long id, JsonObject msg) {
    JobRequest request = JobRequest.fromJson(msg.copy().put("clientId", session.clientId()));
    jobCenter("allocate", request.toJson())
        .compose(job -> launch(job).recover(e -> {
          release(job.getString("jobId"), "its launch failed: " + e.getMessage());
          return Future.failedFuture(e);
        }))
        .onSuccess(job -> {
          String jobId = job.getString("jobId");
          if (session.closed()) {
            kill(job.getString("workerId"), jobId, "its client disconnected before the job started");
            return;
          }
          session.addJob(jobId, job.getString("workerId"));
          clientsMap.put(session.clientId(), session::record);
          session.reply(id, job);
        })
        .onFailure(e -> session.replyError(id, Failure.of(e), e.getMessage()));
  }

  private Future<JsonObject> launch(JsonObject job) {
    String workerId = job.getString("workerId");
    DeliveryOptions opts = new DeliveryOptions().addHeader("op", "launch").setSendTimeout(LAUNCH_TIMEOUT_MS)
        .setLocalOnly(nodeId.equals(job.getString("workerNodeId")));
    Future<JsonObject> launched = vertx.eventBus().<JsonObject>request(Addresses.worker(workerId), job, opts)
        .map(Message::body);
    return launches.track(workerId, launched).map(endpoint -> job.copy().mergeIn(endpoint));
  }

  private void kill(ClientSession session, long id, JsonObject msg) {
    String jobId = Fields.string(msg, "jobId");
    String workerId = session.jobs().get(jobId);
    if (workerId == null) {
      session.replyError(id, Failure.NOT_FOUND, "this client has no job " + jobId);
      return;
    }
    kill(workerId, jobId, "stopped by its client").onComplete(ar -> session.reply(id, new JsonObject()));
  }

  private Future<Object> kill(String workerId, String jobId, String cause) {
    DeliveryOptions opts = new DeliveryOptions().addHeader("op", "kill").setSendTimeout(10_000);
    JsonObject body = new JsonObject().put("jobId", jobId).put("cause", cause);
    return vertx.eventBus().request(Addresses.worker(workerId), body, opts)
        .map(Message::body)
        .onFailure(e -> log.warn("could not stop job {} on worker {}: {}", jobId, workerId, e.getMessage()));
  }

  /** Returns the resources of a job that never started; the worker may have reported it already. */
  private void release(String jobId, String cause) {
    jobCenter("end", new JsonObject().put("jobId", jobId).put("cause", cause))
        .onFailure(e -> {
          if (Failure.of(e) != Failure.NOT_FOUND) {
            log.warn("could not release job {}: {}", jobId, e.getMessage());
          }
        });
  }

  private void onJobEvent(JsonObject event) {
    ClientSession session = clients.get(event.getString("clientId"));
    if (session != null && session.removeJob(event.getString("jobId")) != null) {
      clientsMap.put(session.clientId(), session::record);
      session.event("ended", event);
    }
  }

  private void closed(ClientSession session) {
    session.markClosed();
    if (!session.isClient()) {
      return;
    }
    clients.remove(session.clientId());
    clientsMap.remove(session.clientId());
    jobCenter("cancel", new JsonObject().put("clientId", session.clientId()))
        .onFailure(e -> log.warn("could not cancel the waiting requests of client {}: {}", session.clientId(), e.getMessage()));
    Map<String, String> jobs = session.jobs();
    log.info("client {} disconnected; stopping its {} job(s)", session.clientId(), jobs.size());
    jobs.forEach((jobId, workerId) -> kill(workerId, jobId, "its client " + session.clientId() + " disconnected"));
  }

  private Future<JsonObject> jobCenter(String op, JsonObject body) {
    return vertx.eventBus()
        .<JsonObject>request(Addresses.JOB_CENTER, body, new DeliveryOptions().addHeader("op", op).setLocalOnly(true)
            .setSendTimeout(body.getLong("timeoutMs", 0L) + 30_000))
        .map(Message::body);
  }
}
