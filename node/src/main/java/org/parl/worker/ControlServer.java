package org.parl.worker;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.util.HexFormat;
import java.util.function.BiConsumer;
import org.parl.limits.WriteBound;
import org.parl.security.ClusterToken;
import org.parl.security.SharedSecret;
import org.parl.wire.ControlAuth;
import org.parl.wire.DataAuth;
import org.parl.wire.JsonLines;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loopback server a worker's job processes connect back to (JSON lines). Any local process
 * can connect, so a connection counts only once it has proven that it holds the secret the worker
 * gave one of the processes it started and still waits for ({@link ControlAuth}: a challenge, the
 * job's proof, the worker's proof), and then said {@code ready} with that process's pid, its data
 * port and its client's secret. After that it carries the job's pongs and last words
 * ({@code exiting}, or {@code stopping} with a cause) one way and the worker's {@code assign} and
 * pings the other, and what a reused process says ({@link #afterReady}). A connection that fails or stalls for
 * {@link ControlAuth#DEADLINE_MS} is closed, and so is one whose process does not read what the worker
 * sends ({@link WriteBound}). Runs on the worker verticle's context.
 */
final class ControlServer {

  private static final Logger log = LoggerFactory.getLogger(ControlServer.class);
  /** Connections that may be authenticating at once; a worker starts one job process at a time or so. */
  static final int MAX_UNAUTHENTICATED = 32;
  /**
   * A job pongs every ping (2 s); a link silent this long is closed by Vert.x at once, with what is
   * queued on it, which is how a link dropped by its {@link WriteBound} finally goes.
   */
  static final int READ_IDLE_S = 30;
  /** Longest cause a job may give for stopping itself, which its client reads. */
  static final int MAX_CAUSE = 500;

  private final JobTable table;
  private final long deadlineMs;
  /** Where a ready process's other messages go (a reused process's release, its ready again, why it is not reused). */
  private BiConsumer<JobProcess, JsonObject> afterReady = (p, msg) -> log.debug("job process {} said {}", p.slot,
      msg.getString("op"));
  private Vertx vertx;
  private int port;
  private int unauthenticated;

  ControlServer(JobTable table) {
    this(table, ControlAuth.DEADLINE_MS);
  }

  ControlServer(JobTable table, long deadlineMs) {
    this.table = table;
    this.deadlineMs = deadlineMs;
  }

  /** Sets where the messages of ready processes go, other than their pongs; the process is its current incarnation. */
  void afterReady(BiConsumer<JobProcess, JsonObject> handler) {
    afterReady = handler;
  }

  Future<Void> listen(Vertx vertx) {
    this.vertx = vertx;
    return vertx.createNetServer(new NetServerOptions().setHost("127.0.0.1").setPort(0).setTcpNoDelay(true)
            .setReadIdleTimeout(READ_IDLE_S))
        .connectHandler(this::connected)
        .listen()
        .map(server -> {
          port = server.actualPort();
          return null;
        });
  }

  /** The port job processes are told to connect back to. */
  int port() {
    return port;
  }

  /** Sends a message to a process that is connected; one that is not yet has nothing to hear. */
  static void send(JobProcess p, JsonObject msg) {
    if (p.controlOut != null) {
      p.controlOut.write(Buffer.buffer(msg.encode()).appendByte((byte) '\n'));
    }
  }

  /** One control connection, from its challenge to its ready. */
  private final class Link {
    final NetSocket socket;
    final byte[] nonce = ClusterToken.nonce(SharedSecret.BYTES);
    final long timer;
    /** The process that proved itself, once it did. */
    JobProcess proven;
    /** The process once it said ready. */
    JobProcess bound;
    boolean counted = true;

    Link(NetSocket socket) {
      this.socket = socket;
      this.timer = vertx.setTimer(deadlineMs, t -> {
        if (bound == null) {
          log.warn("closed a control connection that did not authenticate within {} ms", deadlineMs);
          socket.close();
        }
      });
    }

    /** Leaves the unauthenticated count, once. */
    void uncount() {
      if (counted) {
        counted = false;
        unauthenticated--;
      }
    }
  }

  private void connected(NetSocket socket) {
    if (unauthenticated >= MAX_UNAUTHENTICATED) {
      log.warn("refused a control connection: {} are already authenticating", unauthenticated);
      socket.close();
      return;
    }
    unauthenticated++;
    Link link = new Link(socket);
    socket.closeHandler(v -> {
      link.uncount();
      vertx.cancelTimer(link.timer);
      if (link.bound != null) {
        link.bound.latest().controlClosed.tryComplete();
      }
    });
    JsonLines.read(socket, msg -> onMessage(link, msg), bad -> socket.close());
    JsonLines.write(socket, new JsonObject().put("op", "challenge").put("nonce", HexFormat.of().formatHex(link.nonce)));
  }

  private void onMessage(Link link, JsonObject msg) {
    if (link.bound != null) {
      JobProcess p = link.bound.latest();
      switch (msg.getString("op", "")) {
        case "pong" -> {
          p.lastPong = System.currentTimeMillis();
          // a recycling process still counts its previous actor's calls until it is ready again
          if (msg.getValue("calls") instanceof Number n && p.state != JobProcess.State.RECYCLING) {
            p.calls = n.longValue();
          }
        }
        case "exiting" -> p.exitedItself = true;
        case "stopping" -> {
          p.exitedItself = true;
          if (msg.getValue("cause") instanceof String cause && !cause.isBlank()) {
            p.stopCause = cause.length() > MAX_CAUSE ? cause.substring(0, MAX_CAUSE) + "..." : cause;
          }
        }
        default -> afterReady.accept(p, msg);
      }
    } else if (link.proven == null) {
      link.proven = hello(link, msg);
      if (link.proven == null) {
        link.socket.close();
      }
    } else {
      link.bound = ready(link.socket, link.proven, msg);
      if (link.bound == null) {
        link.socket.close();
      } else {
        link.uncount();
        vertx.cancelTimer(link.timer);
      }
    }
  }

  /** The job's proof that it is a process this worker started and still waits for; answered with the worker's. */
  private JobProcess hello(Link link, JsonObject msg) {
    String slot = msg.getValue("slot") instanceof String s ? s : "";
    JobProcess p = table.live(slot);
    byte[] jobNonce = DataAuth.bytes32(msg.getValue("nonce"));
    byte[] proof = DataAuth.bytes32(msg.getValue("proof"));
    if (!"hello".equals(msg.getString("op")) || p == null || p.state != JobProcess.State.STARTING || p.control != null
        || jobNonce == null || !ControlAuth.verifyHello(p.secret, proof, link.nonce, jobNonce, slot)) {
      log.warn("refused a control connection that did not prove it is one of this worker's job processes");
      return null;
    }
    JsonLines.write(link.socket, new JsonObject().put("op", "welcome")
        .put("proof", HexFormat.of().formatHex(ControlAuth.welcomeProof(p.secret, link.nonce, jobNonce, slot))));
    return p;
  }

  /** After its proof, a job's first message must be its ready, from the process the worker started. */
  private JobProcess ready(NetSocket socket, JobProcess p, JsonObject msg) {
    if (p.state != JobProcess.State.STARTING || p.control != null || !"ready".equals(msg.getString("op"))
        || !p.slot.equals(msg.getValue("slot"))
        || !(msg.getValue("pid") instanceof Number pid) || pid.longValue() != p.pid()
        || !(msg.getValue("port") instanceof Integer dataPort)
        || !(msg.getValue("token") instanceof String token) || DataAuth.bytes32(token) == null) {
      log.warn("refused the ready of job process {}: not the process this worker started, or not a ready", p.slot);
      return null;
    }
    p.control = socket;
    p.controlOut = new WriteBound(vertx, socket, socket, "job process " + p.slot + " (control link)", () -> WriteBound.abort(socket));
    p.port = dataPort;
    p.token = token;
    p.lastPong = System.currentTimeMillis();
    p.state = JobProcess.State.IDLE;
    p.ready.tryComplete(p);
    return p;
  }
}
