package org.parl.job;

import java.io.IOException;
import java.lang.ref.WeakReference;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.LocalTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.parl.internal.net.HostPort;
import org.parl.internal.security.SharedSecret;
import org.parl.internal.wire.Checks;
import org.parl.internal.wire.DataAuth;
import org.parl.internal.wire.DataMessageCodec;
import org.parl.internal.wire.JobControl;
import org.parl.internal.wire.SharedLink;
import org.parl.job.tree.OwnTree;

/**
 * A job process: one JVM per actor at a time, started by a worker, not a cluster member. It reads
 * the secrets its worker hands it on standard input ({@link LaunchSecrets}), opens a data port (TLS
 * with {@code --encrypt-data}), proves itself to its worker and reports the port and a fresh
 * per-actor secret, then serves exactly one client: the first that proves it holds that secret
 * ({@link Handshake}). When that client closes its actor, the process checks that the actor left
 * nothing behind ({@link ReuseCheck}); if so, and its worker wants it back in its warm pool
 * ({@link JobControl.Released}), it serves the next actor with a new data port, a new secret and (with TLS) a new
 * key, and writes to the next actor's log; otherwise it ends. It also ends when its client goes
 * away without closing, or when its worker goes away.
 *
 * <p>Arguments: {@code --worker HOST:PORT --slot ID --host BIND_HOST --blobs DIR [--warm-up false]
 * [--code-cache-max-bytes N] [--memory-limit-mb N] [--libraries JAR:JAR...] [--gpu-uuids UUID,UUID...]}
 * ({@code --libraries}: the installation's jars that are not on its class path, {@link Libraries};
 * {@code --gpu-uuids}: a GPU job's allocation, which {@link GpuIdentityCheck} compares with what the
 * CUDA driver shows before the actor's constructor runs),
 * or {@code --train BLOBS_DIR} for the run that makes the class-data archive.
 */
public final class JobMain {

  /** How long an assigned job waits for its client to connect. */
  private static final long CLIENT_WAIT_MS = 60_000;
  /** How long a job whose worker is gone waits for the rest of its tree to die. */
  private static final long ORPHAN_KILL_MS = 5_000;
  /** How long a released job waits for its worker's answer (a new identity, or a stop). */
  private static final long RENEW_WAIT_MS = 10_000;
  /** Connections that may be authenticating at once; more are refused (docs/contract.md §8). */
  static final int MAX_UNAUTHENTICATED = 8;

  private final String slot;
  private final String bindHost;
  private final BlobStore blobs;
  /** The memory limit the worker started this process with ({@code --memory-limit-mb}), 0 for none. */
  private final int memoryLimitMb;
  private final Libraries libraries;
  /** The GPU identity check, run once at the first create of a GPU job. */
  private final GpuIdentityCheck gpuCheck;
  private final Path workDir = Path.of("").toAbsolutePath();
  private final BlockingQueue<JobControl.Renew> renewals = new LinkedBlockingQueue<>();
  private ActorHost host;
  private volatile long assignedAt;
  private volatile String jobId = "unassigned";
  private static volatile ControlLink link;
  private static boolean exiting;

  /** How one actor's session ended. */
  private record SessionEnd(boolean closed, Thread thread) {}

  private JobMain(String slot, String bindHost, BlobStore blobs, int memoryLimitMb, Libraries libraries,
      GpuIdentityCheck gpuCheck) {
    this.gpuCheck = gpuCheck;
    this.memoryLimitMb = memoryLimitMb;
    this.slot = slot;
    this.bindHost = bindHost;
    this.blobs = blobs;
    this.libraries = libraries;
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
      JobMain job = new JobMain(a.get("slot"), a.get("host"), new BlobStore(Path.of(a.get("blobs")),
          Long.parseLong(a.getOrDefault("code-cache-max-bytes", String.valueOf(Long.MAX_VALUE)))),
          Integer.parseInt(a.getOrDefault("memory-limit-mb", "0")),
          a.containsKey("libraries") ? Libraries.of(a.get("libraries")) : Libraries.none(),
          new GpuIdentityCheck(uuids(a.get("gpu-uuids")), System.getenv("CUDA_VISIBLE_DEVICES"), CudaDevices::read,
              mismatch -> link.send(mismatch)));
      if (Boolean.parseBoolean(a.getOrDefault("warm-up", "true"))) {
        WarmUp.run(job.blobs);
      } else {
        // a process needed at once: its data connection's codec gets ready while the worker and the client learn of it
        Thread codec = new Thread(DataMessageCodec::warmUp, "parl-data-codec-warm-up");
        codec.setDaemon(true);
        codec.start();
      }
      link = ControlLink.connect(worker.host(), worker.port());
      link.authenticate(secrets.control(), job.slot);
      link.start(msg -> job.onControl(msg), JobMain::workerGone);
      if (job.gpuCheck.applies()) {
        job.gpuCheck.result(); // before the reuse baseline, which then includes what it loaded
      }
      Runtime.getRuntime().addShutdownHook(new Thread(JobMain::exitedByItself, "parl-last-words"));
      job.run(secrets.tls());
    } catch (Throwable e) {
      exit(1, "failed to start: " + e);
    }
  }

  private static java.util.List<String> uuids(String arg) {
    return arg == null || arg.isBlank() ? java.util.List.of() : java.util.List.of(arg.split(","));
  }

  /** Serves actors one after the other while each ends cleanly and the worker wants the process back. */
  private void run(TlsIdentity firstTls) throws Exception {
    ReuseCheck baseline = null;
    TlsIdentity tls = firstTls;
    while (true) {
      ServerSocket data = tls == null ? new ServerSocket() : tls.serverSocket();
      data.bind(new InetSocketAddress(InetAddress.getByName(bindHost), 0), 16);
      data.setSoTimeout(1000);
      SharedSecret secret = SharedSecret.random();
      host = new ActorHost(blobs, workDir, libraries, gpuCheck);
      if (baseline == null) {
        baseline = ReuseCheck.baseline();
      }
      byte[] fingerprint = tls == null ? DataAuth.NO_FINGERPRINT : tls.fingerprint();
      Handshake handshake = new Handshake(secret, fingerprint, blobs, () -> jobId, memoryLimitMb);
      link.send(new JobControl.Ready(slot, ProcessHandle.current().pid(), data.getLocalPort(), secret.hex(), handshake.nonce()));
      CompletableFuture<SessionEnd> ended = new CompletableFuture<>();
      new DataServer(data, handshake, DataAuth.DEADLINE_MS, MAX_UNAUTHENTICATED).serve(this::checkClientWait,
          (client, shared) -> ended.complete(serve(client, shared)));
      SessionEnd end = awaitEnd(ended);
      if (!end.closed()) {
        exit(0, "its client " + (host.describe().equals("no actor yet") ? "left" : "went away without closing the actor"));
        return;
      }
      tls = recycle(baseline, end);
    }
  }

  /** Waits for the session, however long the actor lives (the port is closed: nothing else can come). */
  private static SessionEnd awaitEnd(CompletableFuture<SessionEnd> ended) throws InterruptedException {
    while (true) {
      try {
        return ended.get(1, TimeUnit.HOURS);
      } catch (TimeoutException e) {
        // the actor is still being served
      } catch (ExecutionException e) {
        return new SessionEnd(false, null);
      }
    }
  }

  /**
   * After a close: tells the worker, checks that the actor left nothing, and waits for the
   * worker's new data-port identity. Returns it, or ends the process.
   */
  private TlsIdentity recycle(ReuseCheck baseline, SessionEnd end) throws InterruptedException, IOException {
    String actor = host.describe();
    link.send(new JobControl.Released(CallerSession.CALLS.get()));
    end.thread().join(ReuseCheck.THREAD_WAIT_MS);
    ClassLoader loader = host.loader();
    if (loader instanceof URLClassLoader l) {
      l.close();
    }
    WeakReference<ClassLoader> released = new WeakReference<>(loader);
    loader = null;
    host = null;
    String why = baseline.check(released, null, workDir); // its output stays the pipe its worker routes to each job's log
    if (why != null) {
      link.send(new JobControl.NotReused(clip(why)));
      exit(0, "the actor " + actor + " was closed; the process is not reused: " + why);
      throw new IllegalStateException("exiting");
    }
    JobControl.Renew renew = renewals.poll(RENEW_WAIT_MS, TimeUnit.MILLISECONDS);
    if (renew == null) {
      exit(0, "the actor " + actor + " was closed; its worker did not take the process back");
      throw new IllegalStateException("exiting");
    }
    CallerSession.CALLS.set(0);
    jobId = "unassigned";
    assignedAt = 0;
    log("the actor " + actor + " was closed and left nothing behind; the process waits for the next actor");
    return LaunchSecrets.dataPort(renew.dataLine());
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

  /** What the worker says once the process is ready; the handshake's messages are not expected again. */
  private void onControl(JobControl.ToJob msg) {
    if (msg instanceof JobControl.Assign assign) {
      jobId = assign.jobId();
      assignedAt = System.currentTimeMillis();
      log("job " + jobId + " assigned to client " + assign.clientId());
    } else if (msg instanceof JobControl.Ping) {
      link.send(new JobControl.Pong(CallerSession.CALLS.get()));
    } else if (msg instanceof JobControl.Stop) {
      exit(0, "stopped by its worker");
    } else if (msg instanceof JobControl.Renew renew) {
      renewals.add(renew);
    } else {
      log("ignored an unexpected control message: " + msg);
    }
  }

  /** An assigned job whose client does not come ends, so that its resources return. */
  private void checkClientWait() {
    if (assignedAt > 0 && System.currentTimeMillis() - assignedAt > CLIENT_WAIT_MS) {
      exit(0, "its client did not connect within " + CLIENT_WAIT_MS / 1000 + " s");
    }
  }

  /** Serves the authenticated client until it closes its actor (its connection is then closed) or goes away. */
  private SessionEnd serve(ClientStreams client, SharedLink shared) {
    boolean closed = new CallerSession(host, blobs, client, shared).run();
    if (shared != null) {
      shared.close();
    }
    // a thread keeps its context loader after it ends: this one must not hold the actor's
    Thread.currentThread().setContextClassLoader(JobMain.class.getClassLoader());
    if (closed) {
      try {
        client.out().close();
      } catch (IOException e) {
        // the close was answered; the connection is gone either way
      }
    }
    return new SessionEnd(closed, Thread.currentThread());
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
      link.send(new JobControl.Stopping(clip(cause)));
    }
    exit(1, cause);
  }

  /**
   * The control link broke without this job exiting: its worker is gone (killed, or died). No worker
   * is left to end what the actor started, so the job ends its own tree before it exits.
   */
  private static void workerGone() {
    synchronized (JobMain.class) {
      if (exiting) {
        return; // the job closed the link itself on its way out; its worker ends its tree
      }
    }
    List<Long> left = OwnTree.endOthers(ORPHAN_KILL_MS);
    exit(0, "its worker went away" + (left.isEmpty() ? "" : "; processes " + left + " of its tree survive SIGKILL"));
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
      link.send(new JobControl.Exiting());
    }
  }

  /** A text cut to what a control message carries ({@link Checks#MAX_TEXT}), so that the worker does not refuse it. */
  private static String clip(String text) {
    return text == null || text.length() <= Checks.MAX_TEXT ? text : text.substring(0, Checks.MAX_TEXT - 3) + "...";
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
      link.send(new JobControl.Pong(CallerSession.CALLS.get()));
      link.send(new JobControl.Exiting());
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
