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
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.parl.cluster.Addresses;
import org.parl.cluster.ClusterInfo;
import org.parl.internal.security.SignedRecords;
import org.parl.internal.wire.DataAuth;
import org.parl.internal.wire.JobControl;
import org.parl.internal.wire.gateway.Job;
import org.parl.job.tree.JobTree;
import org.parl.limits.LimitSettings;
import org.parl.worker.gpu.GpuAllocation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lifecycle of a worker's job processes: starts them, binds them to jobs, kills them, and
 * reports each end with its cause. A process is ready when it connects back ({@link ControlServer});
 * {@link Heartbeats} and {@link MemoryWatch} kill the ones that hang or grow too big; the
 * {@link JobTable} remembers them all. A process whose actor was closed cleanly is taken back
 * into the warm pool for the next actor ({@link #released}), in its same GPUs.
 *
 * <p>It tells each process what happened ({@link JobProcess}'s methods, the only ones that change its
 * state); each process has a {@link JobVerticle}, deployed when its life starts and undeployed when it
 * is over. Used on the worker verticle's context only; the blocking parts (starting a process,
 * reading /proc, files) run on worker threads.
 */
final class JobSupervisor {

  private static final Logger log = LoggerFactory.getLogger(JobSupervisor.class);
  private static final long READY_TIMEOUT_MS = 90_000;
  /** How long {@link #stopAll} waits for the processes to be gone. */
  private static final long STOP_WAIT_MS = 10_000;
  /** How long an ended process's control link may take to deliver its last words and close. */
  private static final long LAST_WORDS_MS = 1_000;
  /** How long a job's tree may take to die after its JVM ended, before the worker says it is stuck. */
  private static final long TREE_WAIT_MS = 3_000;
  /** How often a stuck tree is killed again; its job's resources stay held meanwhile. */
  private static final long STUCK_RETRY_MS = 5_000;

  private final Vertx vertx;
  private final Context context;
  private final WorkerSettings settings;
  private final JobLauncher launcher;
  private final JobTable table = new JobTable();
  private final ControlServer control = new ControlServer(table);
  /** Processes whose JVM ended but whose tree is not gone yet: their jobs' ends wait for it. */
  private final Set<JobProcess> ending = new HashSet<>();
  private final BiConsumer<JobProcess, Boolean> onJobEnded;
  private Containment containment;
  private final WarmPool pool;
  private long seq;
  private boolean stopping;
  private boolean encryptData;
  private final SignedRecords records;

  /**
   * @param onJobEnded called with a process that hosted a job and whether it ended abnormally
   * @param records checks the cluster's description before the data ports follow its {@code encryptData}
   */
  JobSupervisor(Vertx vertx, Context context, WorkerSettings settings, BiConsumer<JobProcess, Boolean> onJobEnded,
      SignedRecords records) {
    this.records = records;
    this.vertx = vertx;
    this.context = context;
    this.settings = settings;
    this.launcher = new JobLauncher(settings.host(), settings.codeCache());
    launcher.gpuAllocation(new GpuAllocation(settings.gpuDevices(), settings.gpuPolicy().byUuid()));
    this.onJobEnded = onJobEnded;
    this.pool = new WarmPool(vertx, settings, table, gpus -> spawn(gpus, 0, true), () -> stopping);
    control.afterReady(this::afterReady);
  }

  Future<Void> start() {
    return vertx.executeBlocking(() -> {
      Containment c = Containment.detect();
      c.sweep();
      return c;
    }).compose(c -> {
      containment = c;
      return startSupervising();
    });
  }

  private Future<Void> startSupervising() {
    vertx.executeBlocking(() -> {
      launcher.prepareArchive();
      return null;
    });
    new Heartbeats(table, this::kill).start(vertx);
    new CodeCacheSweep(settings.codeCache()).start(vertx);
    new MemoryWatch(vertx, table, this::kill).start();
    new GpuMemoryWatch(vertx, table, settings.nvidiaSmi(), this::kill).start();
    // the limits are known before the first job starts: a warm process takes its code-cache cap at its start
    return vertx.executeBlocking(LimitSettings::load).otherwise(e -> {
      log.warn("using the default limits: {}", e.getMessage());
      return LimitSettings.DEFAULTS;
    }).onSuccess(this::applyLimits)
        .compose(limits -> readEncryptData())
        .compose(v -> control.listen(vertx));
  }

  /** The disk caps of docs/contract.md §8: job logs rotated and tidied, the shipped-code cache bounded. */
  private void applyLimits(LimitSettings limits) {
    launcher.codeCacheMaxBytes(limits.codeCacheMaxBytes());
    launcher.logMaxBytes(limits.logMaxBytes());
    new LogJanitor(settings.workDir().resolve("logs"), TimeUnit.HOURS.toMillis(limits.logKeepHours()),
        limits.logKeepEnded()).start(vertx, () -> table.live().map(p -> p.log()).collect(Collectors.toSet()));
  }

  /**
   * Whether the cluster encrypts the data path ({@code parl master --encrypt-data}), from the
   * cluster's description the master publishes. Without one (a worker outside a cluster) the data
   * ports are plain; a client that expects TLS then fails to connect rather than talk in clear.
   */
  private Future<Void> readEncryptData() {
    return vertx.sharedData().<String, String>getClusterWideMap(Addresses.CLUSTER_MAP)
        .compose(m -> m.get(Addresses.CLUSTER_KEY))
        .map(stored -> {
          String json = records.verify(Addresses.CLUSTER_MAP, Addresses.CLUSTER_KEY, stored).orElse(null);
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
    String slot = nextSlot();
    JobProcess p = new JobProcess(slot, gpus, memoryLimitMb, warmUp, logFile(slot), settings.workDir().resolve("jobs").resolve(slot),
        encryptData);
    p.verticle().deployFrom(context);
    table.add(p);
    vertx.executeBlocking(() -> {
      JobLauncher.Started started = launcher.start(p, control.port());
      return new Started(started, containment.adopt(started.process().pid(), slot));
    }).onComplete(ar -> {
      if (ar.failed()) {
        table.ended(p);
        p.failedToStart(ar.cause().getMessage());
        p.verticle().gone();
        return;
      }
      p.started(ar.result().launched().process(), ar.result().launched().output(), ar.result().tree());
      p.process().onExit().thenRun(() -> context.runOnContext(v -> exited(p)));
    });
    if (warmUp) {
      p.whenReady().onSuccess(pool::trim);
    }
    vertx.setTimer(READY_TIMEOUT_MS, t -> {
      if (p.state() == JobProcess.State.STARTING) {
        kill(p, "did not start within " + READY_TIMEOUT_MS / 1000 + " s");
      }
    });
    return p;
  }

  private String nextSlot() {
    return settings.workerId().substring(2) + "-" + (++seq);
  }

  private Path logFile(String slot) {
    return settings.workDir().resolve("logs").resolve(slot + ".log");
  }

  /** Binds a ready (or starting) process to a job. */
  void reserve(JobProcess p, Job job) {
    table.reserve(p, job);
  }

  /** Tells a ready process which job it runs (for its log) and marks it assigned. */
  void assign(JobProcess p) {
    p.assigned();
  }

  /** Kills the process of a job; false when no such job runs here. */
  boolean kill(String jobId, String cause) {
    JobProcess p = table.job(jobId).orElse(null);
    if (p == null || p.state() == JobProcess.State.ENDED) {
      return false;
    }
    kill(p, cause);
    return true;
  }

  /**
   * Kills a process and every process it started; its end is reported with {@code cause} (the first
   * cause given, if several) once they are all gone.
   */
  void kill(JobProcess p, String cause) {
    p.kill(cause);
  }

  /** The warm processes, which start the ones an actor takes without a JVM start. */
  WarmPool pool() {
    return pool;
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
      List<Long> left = Stream.concat(table.live(), ending.stream()).map(JobProcess::pid).toList();
      if (left.isEmpty() || System.currentTimeMillis() > deadline) {
        vertx.cancelTimer(t);
        if (!left.isEmpty()) {
          log.warn("job process(es) {} still run {} ms after they were killed", left, STOP_WAIT_MS);
          gone.complete(hosted);
        } else {
          // removed before the caller goes on: a fenced worker exits right after, which would leave the group behind
          vertx.executeBlocking(() -> {
            containment.close();
            return null;
          }).onComplete(ar -> gone.complete(hosted));
        }
      } else {
        killAll(cause);
      }
    });
    return gone.future();
  }

  /**
   * What a ready process says besides its pongs and last words: about its reuse ({@link JobControl.Released},
   * {@link JobControl.Ready} again, {@link JobControl.NotReused}), a GPU mismatch ({@link JobControl.GpuMismatch}).
   */
  private void afterReady(JobProcess p, JobControl.ToWorker msg) {
    if (msg instanceof JobControl.GpuMismatch mismatch) {
      // the job sends it once, from the create that found it (which fails with both lists)
      log.warn("job {} in process {} (pid {}) does not run on its GPUs: the CUDA driver shows {}, its allocation is {}",
          p.jobId(), p.slot(), p.pid(), mismatch.seen(), mismatch.expected());
    } else if (msg instanceof JobControl.Released released) {
      released(p, released);
    } else if (msg instanceof JobControl.NotReused notReused) {
      log.info("job process {} (pid {}) is not reused: {}", p.slot(), p.pid(), notReused.why());
    } else if (msg instanceof JobControl.Ready ready) {
      readyAgain(p, ready);
    } else {
      log.debug("job process {} said {}", p.slot(), msg);
    }
  }

  /**
   * The actor of {@code p} was closed. The process is taken back for the next actor (its job ends
   * here and now, and its resources are given back as for any end) when it has no memory limit, at
   * most one GPU, and the worker keeps a warm pool and is not stopping ({@link WarmPool#takesBack};
   * {@link WarmPool#trim} keeps the pool's size); otherwise it is stopped, and its end is reported when it exits, as before. The
   * process itself then checks that the actor left nothing behind ({@code ReuseCheck} of the job),
   * and either says ready again with a fresh port and credential or exits. Its data port's TLS key
   * (with {@code --encrypt-data}) is made anew for it here and sent on the loopback control link.
   */
  private void released(JobProcess p, JobControl.Released msg) {
    if (p.state() != JobProcess.State.ASSIGNED || p.jobId() == null) {
      log.warn("job process {} said its actor was closed, but it runs none: stopped", p.slot());
      ControlServer.send(p, new JobControl.Stop());
      return;
    }
    p.released(msg.calls());
    if (stopping || p.killCause() != null || !pool.takesBack(p)) {
      ControlServer.send(p, new JobControl.Stop());
      return;
    }
    String slot = nextSlot();
    // its resources return once the process proved clean (readyAgain), or once it is gone (reportEnd)
    JobProcess next = p.takenBack(slot, logFile(slot));
    table.ended(p);
    table.add(next);
    vertx.executeBlocking(() -> p.encryptData() ? JobKeys.tlsLine() : "plain").onComplete(ar -> {
      if (ar.succeeded()) {
        ControlServer.send(next, new JobControl.Renew(ar.result()));
      } else {
        kill(next, "could not make a new data-port key: " + ar.cause().getMessage());
      }
    });
    vertx.setTimer(READY_TIMEOUT_MS, t -> {
      if (next.state() == JobProcess.State.RECYCLING) {
        kill(next, "was not ready again within " + READY_TIMEOUT_MS / 1000 + " s of its actor's close");
      }
    });
    log.info("job {} ended: its actor was closed; process {} is checked for reuse as slot {}", p.jobId(), p.pid(), slot);
  }

  /** Reports the end of the job a recycled process served before, if it was not reported yet. */
  private void reportPendingEnd(JobProcess p) {
    JobProcess previous = p.takePendingEnd();
    if (previous != null) {
      onJobEnded.accept(previous, false);
    }
  }

  /** A taken-back process is ready again: a fresh data port and a fresh credential, for the next actor. */
  private void readyAgain(JobProcess p, JobControl.Ready msg) {
    if (p.state() != JobProcess.State.RECYCLING || msg.pid() != p.pid() || DataAuth.bytes32(msg.token()) == null) {
      log.warn("job process {} said ready out of turn: stopped", p.slot());
      kill(p, "said ready out of turn");
      return;
    }
    JobTree tree = p.tree();
    vertx.executeBlocking(() -> tree == null ? List.<Long>of() : tree.pids()).onComplete(ar -> {
      List<Long> others = ar.succeeded() ? ar.result().stream().filter(other -> other != p.pid()).toList() : List.of();
      if (ar.failed() || !others.isEmpty()) {
        kill(p, "its actor left process(es) " + others + " behind");
        return;
      }
      if (p.state() != JobProcess.State.RECYCLING) {
        return; // killed meanwhile
      }
      p.readyAgain(msg);
      reportPendingEnd(p);
      log.info("job process {} (slot {}) is clean and ready for the next actor", p.pid(), p.slot());
      pool.trim(p);
    });
  }

  /**
   * A job JVM ended: what it started is killed, and its end is reported once that is gone and its
   * last words are read. A tree that survives SIGKILL (a process stuck in the kernel) keeps its job's
   * resources held, so that no GPU it may still use is offered again; it is killed again every
   * {@value #STUCK_RETRY_MS} ms.
   */
  private void exited(JobProcess first) {
    JobProcess p = first.latest();
    p.exited();
    table.ended(p);
    ending.add(p);
    Promise<Void> gone = Promise.promise();
    awaitTree(p, TREE_WAIT_MS, gone);
    gone.future().compose(v -> lastWords(p)).onComplete(v -> {
      ending.remove(p);
      reportEnd(p);
    });
  }

  private void awaitTree(JobProcess p, long waitMs, Promise<Void> gone) {
    JobTree tree = p.tree();
    if (tree == null) {
      gone.complete();
      return;
    }
    vertx.executeBlocking(() -> tree.killAndWait(waitMs)).onComplete(ar -> {
      if (ar.succeeded() && ar.result().isEmpty()) {
        vertx.executeBlocking(() -> {
          tree.release();
          return null;
        });
        gone.complete();
        return;
      }
      if (waitMs == TREE_WAIT_MS) {
        log.warn("job process {} (slot {}) ended, but process(es) {} of its tree survive SIGKILL: its resources stay held "
            + "until they are gone", p.pid(), p.slot(), ar.succeeded() ? ar.result() : ar.cause().getMessage());
      }
      vertx.setTimer(STUCK_RETRY_MS, t -> awaitTree(p, 1_000, gone));
    });
  }

  /**
   * Its last words (why it stopped itself, or that it exited by itself) come on its control link,
   * which closes as the process ends: the cause is decided once they are read.
   */
  private Future<Void> lastWords(JobProcess p) {
    if (!p.linked()) {
      return Future.succeededFuture();
    }
    Promise<Void> read = Promise.promise();
    long timer = vertx.setTimer(LAST_WORDS_MS, t -> read.tryComplete());
    p.whenLinkClosed().onComplete(ar -> {
      vertx.cancelTimer(timer);
      read.tryComplete();
    });
    return read.future();
  }

  private void reportEnd(JobProcess p) {
    boolean abnormal = p.ended(p.process().exitValue());
    p.verticle().gone();
    vertx.executeBlocking(() -> deleteTree(p.workDir()));
    reportPendingEnd(p);
    if (p.jobId() != null) {
      log.info("job {} ended: {}", p.jobId(), p.endCause());
      onJobEnded.accept(p, abnormal);
    } else if (!stopping) {
      if (abnormal) {
        log.warn("warm job process {} ended: {}", p.slot(), p.endCause());
      }
      pool.topUp();
    }
  }

  /** A job JVM just started, and its tree. */
  private record Started(JobLauncher.Started launched, JobTree tree) {}

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
