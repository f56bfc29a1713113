package org.parl.job;

import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.LocalTime;
import java.util.Map;
import org.parl.net.HostPort;
import org.parl.security.SharedSecret;
import org.parl.wire.DataAuth;

/**
 * A job process: one JVM per actor, started by a worker, not a cluster member. It reads the secrets
 * its worker hands it on standard input ({@link LaunchSecrets}), opens a data port (TLS with
 * {@code --encrypt-data}), proves itself to its worker and reports the port and a fresh per-job
 * secret, then serves exactly one client: the first that proves it holds that secret
 * ({@link Handshake}). It ends when that client closes the actor or goes away, or when its worker
 * goes away.
 *
 * <p>Arguments: {@code --worker HOST:PORT --slot ID --host BIND_HOST --blobs DIR [--warm-up false]
 * [--code-cache-max-bytes N]},
 * or {@code --train BLOBS_DIR} for the run that makes the class-data archive.
 */
public final class JobMain {

  /** How long an assigned job waits for its client to connect. */
  private static final long CLIENT_WAIT_MS = 60_000;
  /** Connections that may be authenticating at once; more are refused (SPEC §8). */
  static final int MAX_UNAUTHENTICATED = 8;

  private final String slot;
  private final ActorHost host;
  private final BlobStore blobs;
  private volatile long assignedAt;
  private volatile String jobId = "unassigned";
  private static volatile ControlLink link;
  private static boolean exiting;

  private JobMain(String slot, BlobStore blobs) {
    this.slot = slot;
    this.blobs = blobs;
    this.host = new ActorHost(blobs, Path.of("").toAbsolutePath());
  }

  public static void main(String[] args) {
    if (args.length == 2 && args[0].equals("--train")) {
      train(Path.of(args[1]));
      return;
    }
    try {
      Map<String, String> a = JobArgs.parse(args);
      HostPort worker = HostPort.parse(a.get("worker"));
      LaunchSecrets secrets = LaunchSecrets.read(System.in);
      ServerSocket data = secrets.tls() == null ? new ServerSocket() : secrets.tls().serverSocket();
      data.bind(new InetSocketAddress(InetAddress.getByName(a.get("host")), 0), 16);
      data.setSoTimeout(1000);
      SharedSecret secret = SharedSecret.random();
      JobMain job = new JobMain(a.get("slot"), new BlobStore(Path.of(a.get("blobs")),
          Long.parseLong(a.getOrDefault("code-cache-max-bytes", String.valueOf(Long.MAX_VALUE)))));
      if (Boolean.parseBoolean(a.getOrDefault("warm-up", "true"))) {
        WarmUp.run(job.blobs);
      }
      link = ControlLink.connect(worker.host(), worker.port());
      link.authenticate(secrets.control(), job.slot);
      link.start(msg -> job.onControl(msg), () -> exit(0, "its worker went away"));
      Runtime.getRuntime().addShutdownHook(new Thread(JobMain::exitedByItself, "parl-last-words"));
      link.send(Map.of("op", "ready", "slot", job.slot, "port", data.getLocalPort(), "token", secret.hex(),
          "pid", ProcessHandle.current().pid()));
      byte[] fingerprint = secrets.tls() == null ? DataAuth.NO_FINGERPRINT : secrets.tls().fingerprint();
      Handshake handshake = new Handshake(secret, fingerprint, job.blobs, () -> job.jobId);
      new DataServer(data, handshake, DataAuth.DEADLINE_MS, MAX_UNAUTHENTICATED).serve(job::checkClientWait, job::serve);
    } catch (Throwable e) {
      exit(1, "failed to start: " + e);
    }
  }

  /**
   * A training run for the class-data archive of job processes: loads what serving an actor
   * loads, then exits so that the JVM (started with {@code -XX:ArchiveClassesAtExit}) dumps it.
   */
  private static void train(Path blobs) {
    try {
      WarmUp.run(new BlobStore(blobs));
      System.exit(0);
    } catch (Throwable e) {
      System.err.println("training failed: " + e);
      System.exit(1);
    }
  }

  private void onControl(Map<String, Object> msg) {
    switch (String.valueOf(msg.get("op"))) {
      case "assign" -> {
        jobId = String.valueOf(msg.get("jobId"));
        assignedAt = System.currentTimeMillis();
        log("job " + jobId + " assigned to client " + msg.get("clientId"));
      }
      case "ping" -> link.send(Map.of("op", "pong", "calls", CallerSession.CALLS.get()));
      case "stop" -> exit(0, "stopped by its worker");
      default -> log("ignored an unknown control message: " + msg);
    }
  }

  /** An assigned job whose client does not come ends, so that its resources return. */
  private void checkClientWait() {
    if (assignedAt > 0 && System.currentTimeMillis() - assignedAt > CLIENT_WAIT_MS) {
      exit(0, "its client did not connect within " + CLIENT_WAIT_MS / 1000 + " s");
    }
  }

  /** Serves the authenticated client until it ends, then ends the process. */
  private void serve(ClientInput buffered, DataInputStream in, OutputStream out) {
    new CallerSession(host, blobs, buffered, in, out).run();
    exit(0, "its client " + (host.describe().equals("no actor yet") ? "left" : "closed the actor"));
  }

  static void log(String message) {
    System.out.println(LocalTime.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS) + " parl job: " + message);
  }

  /**
   * Ends the process for a reason of its own that its client must hear (it is not the actor's
   * doing): the worker reports {@code cause} as the job's end instead of reading one from the exit status.
   */
  static void stop(String cause) {
    if (link != null) {
      link.send(Map.of("op", "stopping", "cause", cause));
    }
    exit(1, cause);
  }

  /**
   * Last words on every {@code System.exit}, the actor's own included, but not on the JVM's halt
   * for an {@link OutOfMemoryError} (-XX:+ExitOnOutOfMemoryError runs no hooks): so the worker
   * tells an actor that called {@code System.exit(3)} from one whose code filled the heap.
   */
  private static void exitedByItself() {
    synchronized (JobMain.class) {
      if (exiting) {
        return; // exit() said so already
      }
    }
    if (link != null) {
      link.send(Map.of("op", "exiting"));
    }
  }

  /** Ends the process; a stuck shutdown hook of user code cannot keep it alive for long. */
  static void exit(int code, String why) {
    synchronized (JobMain.class) {
      if (exiting) {
        return;
      }
      exiting = true;
    }
    log("exiting: " + why);
    if (link != null) {
      link.send(Map.of("op", "pong", "calls", CallerSession.CALLS.get()));
      link.send(Map.of("op", "exiting"));
      // the JVM waits up to 300 ms at exit for threads blocked in native reads: end the reader's read
      link.close();
    }
    System.out.flush();
    Thread killer = new Thread(() -> {
      try {
        Thread.sleep(5_000);
      } catch (InterruptedException e) {
        // exit anyway
      }
      Runtime.getRuntime().halt(code);
    });
    killer.setDaemon(true);
    killer.start();
    System.exit(code);
  }
}
