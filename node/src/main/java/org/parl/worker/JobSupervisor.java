package org.parl.worker;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.parl.cluster.Addresses;
import org.parl.cluster.ClusterInfo;
import org.parl.limits.LimitSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lifecycle of a worker's job processes: starts them, binds them to jobs, kills them, and
 * reports each end with its cause. A process is ready when it connects back ({@link ControlServer});
 * {@link Heartbeats} and {@link MemoryWatch} kill the ones that hang or grow too big; the
 * {@link JobTable} remembers them all.
 *
 * <p>Used on the worker verticle's context only; the blocking parts (starting a process, reading
 * /proc, files) run on worker threads.
 */
final class JobSupervisor {

  private static final Logger log = LoggerFactory.getLogger(JobSupervisor.class);
  private static final long READY_TIMEOUT_MS = 90_000;
  /** How long {@link #stopAll} waits for the processes to be gone. */
  private static final long STOP_WAIT_MS = 10_000;
  /** How long an ended process's control link may take to deliver its last words and close. */
  private static final long LAST_WORDS_MS = 1_000;

  private final Vertx vertx;
  private final Context context;
  private final WorkerSettings settings;
  private final JobLauncher launcher;
  private final JobTable table = new JobTable();
  private final ControlServer control = new ControlServer(table);
  private final BiConsumer<JobProcess, Boolean> onJobEnded;
  private final Runnable onWarmEnded;
  private long seq;
  private boolean stopping;
  private boolean encryptData;

  /**
   * @param onJobEnded called with a process that hosted a job and whether it ended abnormally
   * @param onWarmEnded called when a warm process ended without a job
   */
  JobSupervisor(Vertx vertx, Context context, WorkerSettings settings, BiConsumer<JobProcess, Boolean> onJobEnded,
      Runnable onWarmEnded) {
    this.vertx = vertx;
    this.context = context;
    this.settings = settings;
    this.launcher = new JobLauncher(settings.host(), settings.codeCache());
    this.onJobEnded = onJobEnded;
    this.onWarmEnded = onWarmEnded;
  }

  Future<Void> start() {
    vertx.executeBlocking(() -> {
      launcher.prepareArchive();
      return null;
    });
    new Heartbeats(table, this::kill).start(vertx);
    new MemoryWatch(vertx, table, this::kill).start();
    vertx.executeBlocking(LimitSettings::load).otherwise(e -> {
      log.warn("using the default limits: {}", e.getMessage());
      return LimitSettings.DEFAULTS;
    }).onSuccess(this::applyLimits);
    return readEncryptData().compose(v -> control.listen(vertx));
  }

  /** The disk caps of SPEC §8: job logs rotated and tidied, the shipped-code cache bounded. */
  private void applyLimits(LimitSettings limits) {
    launcher.codeCacheMaxBytes(limits.codeCacheMaxBytes());
    new LogJanitor(settings.workDir().resolve("logs"), limits.logMaxBytes(), TimeUnit.HOURS.toMillis(limits.logKeepHours()),
        limits.logKeepEnded()).start(vertx, () -> table.live().map(p -> p.log).collect(Collectors.toSet()));
  }

  /**
   * Whether the cluster encrypts the data path ({@code parl master --encrypt-data}), from the
   * cluster's description the master publishes. Without one (a worker outside a cluster) the data
   * ports are plain; a client that expects TLS then fails to connect rather than talk in clear.
   */
  private Future<Void> readEncryptData() {
    return vertx.sharedData().<String, String>getClusterWideMap(Addresses.CLUSTER_MAP)
        .compose(m -> m.get(Addresses.CLUSTER_KEY))
        .map(json -> {
          encryptData = json != null && new JsonObject(json).getBoolean(ClusterInfo.ENCRYPT_DATA, false);
          log.info("job data ports {}", encryptData ? "use TLS (--encrypt-data)" : "authenticate each client without TLS");
          return (Void) null;
        })
        .recover(e -> {
          log.warn("cannot read the cluster's description ({}): job data ports are plain", e.getMessage());
          return Future.succeededFuture();
        });
  }

  boolean stopping() {
    return stopping;
  }

  /**
   * Starts a process; its {@code ready} future completes when it can take an actor.
   *
   * @param warmUp true for a warm-pool process, which compiles its code paths before it is ready
   */
  JobProcess spawn(List<Integer> gpus, int memoryLimitMb, boolean warmUp) {
    String slot = settings.workerId().substring(2) + "-" + (++seq);
    JobProcess p = new JobProcess(slot, gpus, memoryLimitMb, warmUp,
        settings.workDir().resolve("logs").resolve(slot + ".log"), settings.workDir().resolve("jobs").resolve(slot));
    p.encryptData = encryptData;
    table.add(p);
    vertx.executeBlocking(() -> launcher.start(p, control.port())).onComplete(ar -> {
      if (ar.failed()) {
        p.endCause = "could not start a job process: " + ar.cause().getMessage();
        p.state = JobProcess.State.ENDED;
        table.ended(p);
        p.ready.tryFail(p.endCause);
        return;
      }
      p.process = ar.result();
      p.process.onExit().thenRun(() -> context.runOnContext(v -> exited(p)));
    });
    vertx.setTimer(READY_TIMEOUT_MS, t -> {
      if (p.state == JobProcess.State.STARTING) {
        kill(p, "did not start within " + READY_TIMEOUT_MS / 1000 + " s");
      }
    });
    return p;
  }

  /** Binds a ready (or starting) process to a job. */
  void reserve(JobProcess p, JsonObject job) {
    table.reserve(p, job);
  }

  /** Tells a ready process which job it runs (for its log) and marks it assigned. */
  void assign(JobProcess p) {
    p.state = JobProcess.State.ASSIGNED;
    ControlServer.send(p, new JsonObject().put("op", "assign").put("jobId", p.jobId).put("clientId", p.clientId));
    log.info("job {} of client {} runs in process {} (slot {}{})", p.jobId, p.clientId, p.pid(), p.slot,
        p.gpus.isEmpty() ? "" : ", CUDA_VISIBLE_DEVICES=" + p.gpus);
  }

  /** Kills the process of a job; false when no such job runs here. */
  boolean kill(String jobId, String cause) {
    JobProcess p = table.job(jobId).orElse(null);
    if (p == null || p.state == JobProcess.State.ENDED) {
      return false;
    }
    kill(p, cause);
    return true;
  }

  /** Kills a process; its end is reported with {@code cause} (the first cause given, if several). */
  void kill(JobProcess p, String cause) {
    if (p.killCause == null) {
      p.killCause = cause;
    }
    if (p.process != null) {
      p.process.destroyForcibly();
    }
  }

  /** Processes that can take an actor without a JVM start, best first (ready before starting). */
  Optional<JobProcess> warm(List<Integer> gpus) {
    return table.warm(gpus);
  }

  Stream<JobProcess> liveProcesses() {
    return table.live();
  }

  Optional<JobProcess> job(String jobId) {
    return table.job(jobId);
  }

  List<JobProcess> jobs() {
    return table.jobs();
  }

  /** Kills every process; used when the worker stops. */
  void killAll() {
    killAll("its worker stopped");
  }

  /** Kills every process, each end reported with {@code cause}; from now on the worker is {@link #stopping()}. */
  void killAll(String cause) {
    stopping = true;
    for (JobProcess p : table.live().toList()) {
      kill(p, cause);
    }
  }

  /**
   * Kills every process, again every 100 ms for those that were still starting, until none is left
   * or {@value #STOP_WAIT_MS} ms have passed; completes with how many of them hosted a job.
   */
  Future<Integer> stopAll(String cause) {
    int hosted = (int) table.live().filter(p -> !p.warm()).count();
    long deadline = System.currentTimeMillis() + STOP_WAIT_MS;
    Promise<Integer> gone = Promise.promise();
    killAll(cause);
    vertx.setPeriodic(100, t -> {
      List<Long> left = table.live().map(JobProcess::pid).toList();
      if (left.isEmpty() || System.currentTimeMillis() > deadline) {
        vertx.cancelTimer(t);
        if (!left.isEmpty()) {
          log.warn("job process(es) {} still run {} ms after they were killed", left, STOP_WAIT_MS);
        }
        gone.complete(hosted);
      } else {
        killAll(cause);
      }
    });
    return gone.future();
  }

  private void exited(JobProcess p) {
    p.state = JobProcess.State.ENDED;
    p.endedAt = System.currentTimeMillis();
    table.ended(p);
    if (p.control == null) {
      reportEnd(p);
      return;
    }
    // its last words (why it stopped itself, or that it exited by itself) come on its control link,
    // which closes as the process ends: the cause is decided once they are read
    long timer = vertx.setTimer(LAST_WORDS_MS, t -> reportEnd(p));
    p.controlClosed.future().onComplete(ar -> {
      if (vertx.cancelTimer(timer)) {
        reportEnd(p);
      }
    });
  }

  private void reportEnd(JobProcess p) {
    int code = p.process.exitValue();
    boolean abnormal = p.killCause != null || code != 0;
    p.endCause = ExitCause.of(p, code);
    p.ready.tryFail("the job process ended before it was ready: " + p.endCause + " (log: " + p.log + ")");
    if (p.control != null) {
      p.control.close();
    }
    vertx.executeBlocking(() -> deleteTree(p.workDir));
    if (p.jobId != null) {
      log.info("job {} ended: {}", p.jobId, p.endCause);
      onJobEnded.accept(p, abnormal);
    } else if (!stopping) {
      if (abnormal) {
        log.warn("warm job process {} ended: {}", p.slot, p.endCause);
      }
      onWarmEnded.run();
    }
  }

  private static Void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return null;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
    return null;
  }
}
