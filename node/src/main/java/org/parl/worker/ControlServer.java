package org.parl.worker;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.util.HexFormat;
import java.util.function.BiConsumer;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.security.SharedSecret;
import org.parl.internal.wire.BadMessageException;
import org.parl.internal.wire.ControlAuth;
import org.parl.internal.wire.DataAuth;
import org.parl.internal.wire.JobControl;
import org.parl.internal.wire.JobControlCodec;
import org.parl.internal.wire.JsonLines;
import org.parl.limits.WriteBound;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loopback server a worker's job processes connect back to (JSON lines of {@link JobControl}).
 * Any local process can connect, so a connection counts only once it has proven that it holds the
 * secret the worker gave one of the processes it started and still waits for ({@link ControlAuth}:
 * a challenge, the job's proof, the worker's proof), and then said {@link JobControl.Ready} with
 * that process's pid, its data port and its client's secret. After that it carries the job's pongs
 * and last words ({@link JobControl.Exiting}, or {@link JobControl.Stopping} with a cause) one way and
 * the worker's {@link JobControl.Assign} and pings the other, and what a reused process says
 * ({@link #afterReady}). A connection that fails or stalls for {@link ControlAuth#DEADLINE_MS} is
 * closed, and so is one that sends a line that is not JSON, and one whose process does not read
 * what the worker sends ({@link WriteBound}). Once ready, a JSON line that is not a message a job
 * sends is ignored. What a process says is handed to its {@link JobVerticle}. Runs on the worker
 * verticle's context.
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
  private BiConsumer<JobProcess, JobControl.ToWorker> afterReady = (p, msg) -> log.debug("job process {} said {}", p.slot(), msg);
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
  void afterReady(BiConsumer<JobProcess, JobControl.ToWorker> handler) {
    afterReady = handler;
  }

  Future<Void> listen(Vertx vertx) {
    this.vertx = vertx;
    // the first job connects a second or more from now: the codec's first use would otherwise block the event loop
    Thread warmUp = new Thread(JobControlCodec::warmUp, "parl-job-control-warm-up");
    warmUp.setDaemon(true);
    warmUp.start();
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
  static void send(JobProcess p, JobControl.ToJob msg) {
    if (p.controlOut() != null) {
      byte[] json = JobControlCodec.encode(msg);
      p.controlOut().write(Buffer.buffer(json.length + 1).appendBytes(json).appendByte((byte) '\n'));
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
        link.bound.latest().linkClosed();
      }
    });
    JsonLines.readLines(socket, line -> onLine(link, line.getBytes()), bad -> socket.close());
    JsonLines.write(socket, JobControlCodec.encode(new JobControl.Challenge(HexFormat.of().formatHex(link.nonce))));
  }

  /**
   * Decodes a line. One that is not JSON closes the connection; a JSON object that is not a message
   * a job sends, or has a bad field, is refused before the ready (which closes the connection too)
   * and ignored after.
   */
  private void onLine(Link link, byte[] line) {
    JobControl.ToWorker msg;
    try {
      msg = JobControlCodec.toWorker(line);
    } catch (BadMessageException e) {
      // the reason may quote what any local process sent: no line breaks of its own in the log
      String why = e.getMessage().replaceAll("\\p{Cntrl}", "?");
      if (!JobControlCodec.isObject(line)) {
        link.socket.close();
      } else if (link.bound != null) {
        log.debug("job process {} sent a control message the worker does not take: {}", link.bound.latest().slot(), why);
      } else {
        log.warn("refused a control connection whose {} did not decode: {}", link.proven == null ? "hello" : "ready", why);
        link.socket.close();
      }
      return;
    }
    onMessage(link, msg);
  }

  private void onMessage(Link link, JobControl.ToWorker msg) {
    if (link.bound != null) {
      JobProcess p = link.bound.latest();
      if (msg instanceof JobControl.Pong pong) {
        p.ponged(pong.calls());
      } else if (msg instanceof JobControl.Exiting) {
        p.saidExiting();
      } else if (msg instanceof JobControl.Stopping stopping) {
        p.saidStopping(stopping.cause());
      } else {
        afterReady.accept(p, msg);
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
  private JobProcess hello(Link link, JobControl.ToWorker msg) {
    JobControl.Hello hello = msg instanceof JobControl.Hello h ? h : null;
    String slot = hello == null ? "" : hello.slot();
    JobProcess p = table.live(slot);
    byte[] jobNonce = hello == null ? null : DataAuth.bytes32(hello.nonce());
    byte[] proof = hello == null ? null : DataAuth.bytes32(hello.proof());
    if (hello == null || p == null || p.state() != JobProcess.State.STARTING || p.linked()
        || jobNonce == null || !ControlAuth.verifyHello(p.secret(), proof, link.nonce, jobNonce, slot)) {
      log.warn("refused a control connection that did not prove it is one of this worker's job processes");
      return null;
    }
    JsonLines.write(link.socket, JobControlCodec.encode(
        new JobControl.Welcome(HexFormat.of().formatHex(ControlAuth.welcomeProof(p.secret(), link.nonce, jobNonce, slot)))));
    return p;
  }

  /** After its proof, a job's first message must be its ready, from the process the worker started. */
  private JobProcess ready(NetSocket socket, JobProcess p, JobControl.ToWorker msg) {
    if (p.state() != JobProcess.State.STARTING || p.linked() || !(msg instanceof JobControl.Ready ready)
        || !p.slot().equals(ready.slot()) || ready.pid() != p.pid() || DataAuth.bytes32(ready.token()) == null) {
      log.warn("refused the ready of job process {}: not the process this worker started, or not a ready", p.slot());
      return null;
    }
    p.becameReady(socket, new WriteBound(vertx, socket, socket, "job process " + p.slot() + " (control link)",
        () -> WriteBound.abort(socket)), ready);
    return p;
  }
}
