package org.parl.worker;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.parl.cluster.Addresses;
import org.parl.cluster.ClusterNode;
import org.parl.cluster.LossDetection;
import org.parl.cluster.MapPublisher;
import org.parl.control.ControlReply.Done;
import org.parl.control.ControlReply.JobList;
import org.parl.control.ControlReply.JobLog;
import org.parl.control.ControlReply.JobStatus;
import org.parl.control.ControlReply.Launched;
import org.parl.control.ControlReply.Registered;
import org.parl.control.Dispatcher;
import org.parl.control.Failures;
import org.parl.control.JobCenterRequest.EndJob;
import org.parl.control.JobCenterRequest.GpuHealth;
import org.parl.control.JobCenterRequest.RegisterWorker;
import org.parl.control.JobCenterRequest.UnregisterWorker;
import org.parl.control.LocalEvent.MastersChanged;
import org.parl.control.WorkerRequest.DownloadLog;
import org.parl.control.WorkerRequest.KillJob;
import org.parl.control.WorkerRequest.Launch;
import org.parl.control.WorkerRequest.ListJobs;
import org.parl.control.WorkerRequest.ReadLog;
import org.parl.control.WorkerRequest.ReadStatus;
import org.parl.ha.JobCenterCalls;
import org.parl.ha.MasterRecord;
import org.parl.ha.Masters;
import org.parl.internal.net.HostPort;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.gateway.Job;
import org.parl.internal.wire.gateway.JobPlacement;
import org.parl.worker.gpu.GpuDevice;
import org.parl.worker.gpu.GpuHealthWatch;
import org.parl.worker.gpu.GpuHolds;
import org.parl.worker.gpu.GpuInventory;
import org.parl.worker.gpu.GpuLocks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's presence in the cluster: registers what it lends with the JobCenter, starts a job
 * process for each actor the master places here (from a warm pool when it can), reports each
 * job's end with its cause, and answers log requests on {@code parl.worker.<id>}. Each job process
 * ({@link JobProcess}, whose own methods are the only ones that change its state) has a
 * {@link JobVerticle}, which answers for its job on that job's own address; this verticle keeps
 * their registry ({@link JobTable}, through {@link JobSupervisor}). When another master becomes
 * active (docs/contract.md §10) it registers again with the jobs it runs, which the new JobCenter
 * adopts; it launches only grants of the master it sees active. A worker on a node of its own fences
 * itself when the last master is gone ({@link Fence}).
 */
public final class WorkerVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(WorkerVerticle.class);
  private static final long REGISTER_RETRY_MS = 200;
  private static final long REGISTER_DEADLINE_MS = 20_000;
  private static final long REGISTER_TIMEOUT_MS = 10_000;
  /** Per attempt while following a new active master: a request sent to the one that died is not waited for long. */
  private static final long REREGISTER_TIMEOUT_MS = 2_000;
  private static final long END_TIMEOUT_MS = 30_000;
  private static final long HEALTH_TIMEOUT_MS = 10_000;
  /** A stop waits this long at most for the JobCenter to take the goodbye: a master that is gone does not hold it up. */
  private static final long GOODBYE_TIMEOUT_MS = 3_000;
  static final long NO_MASTER_GRACE_MS = 2_000;
  static final long STATS_MS = 2_000;

  private final ClusterNode node;
  private final WorkerSettings settings;
  private final Supplier<Masters> masters;
  private final Fencing fencing;
  /** The jobs this worker runs or launches, as granted: what it reports to a new active master. */
  private final Map<String, Job> granted = new LinkedHashMap<>();
  /** Counts registrations, so that an answer to a superseded one is ignored. */
  private int registration;
  /** What this worker registers as (with the jobs it runs at each registration). */
  private RegisterWorker identity;
  /** The active master this worker registered with last. */
  private String followed;
  /** The last change that left no master, whose gateway is probed if none comes back. */
  private MastersChanged lastLost;
  /** The member ids of the masters (active and standbys) last seen live. */
  private Set<String> knownMasters = Set.of();
  private Fence fence;
  private JobSupervisor jobs;
  private MapPublisher stats;
  private boolean readingStats;
  private GpuHealthWatch health;
  /** This worker's claims on its GPUs, held from its start to its stop. */
  private GpuLocks gpuLocks;
  /** Whether a health report is on its way to the JobCenter: the next one waits for its answer. */
  private boolean reportingHealth;
  /** Set once the goodbye is said: a change of masters then registers nothing again. */
  private boolean leaving;
  /** Calls served by jobs that have ended, so that the total never goes down. */
  private long endedCalls;

  /** A worker in a master's own process: it ends with its master. */
  public WorkerVerticle(ClusterNode node, WorkerSettings settings, Supplier<Masters> masters) {
    this(node, settings, masters, null);
  }

  /**
   * A worker on a node of its own, which fences itself as {@code fencing} says when the last master is gone.
   *
   * @param masters the cluster's masters as this node's directory sees them (its
   *     {@link MastersChanged} events are followed)
   */
  public WorkerVerticle(ClusterNode node, WorkerSettings settings, Supplier<Masters> masters, Fencing fencing) {
    this.node = node;
    this.settings = settings;
    this.masters = masters;
    this.fencing = fencing;
  }

  /**
   * The active master changed: follow the new one with this worker's jobs, or fence when none is
   * left. "None" is believed only after {@link #NO_MASTER_GRACE_MS}: a master whose record was lost
   * with two members that died together writes it again at once.
   */
  private void mastersChanged(MastersChanged e) {
    if (e.active() == null) {
      if (e.previous() != null) {
        lastLost = e;
      }
      if (fence != null && lastLost != null && lastLost.previousAddress() != null && !anyMasterInSight()) {
        fence.mastersOutOfSight(HostPort.parse(lastLost.previousAddress()), lastLost.previous());
        return;
      }
      vertx.setTimer(NO_MASTER_GRACE_MS, t -> {
        if (fence != null && masters.get().active().isEmpty() && lastLost != null && lastLost.previousAddress() != null) {
          fence.masterLost(HostPort.parse(lastLost.previousAddress()), lastLost.previous());
        }
      });
      return;
    }
    rememberMasters();
    boolean fencePending = fence != null && fence.masterGone() && !fence.fenced();
    if (identity == null || leaving || jobs.stopping() || (fence != null && fence.fenced())
        || (e.active().equals(followed) && !fencePending)) {
      return;
    }
    followed = e.active();
    log.info("following the active master (member {}): reporting {} job(s)", e.active(), granted.size());
    register(REREGISTER_TIMEOUT_MS).onSuccess(r -> {
      if (fence != null) {
        fence.cancel(e.active());
      }
    }).onFailure(err -> {
      if (err instanceof Superseded) {
        return; // a later registration speaks for this worker now
      }
      log.warn("the new active master did not take this worker's report: {}", err.getMessage());
      if (fence != null && e.previousAddress() != null) {
        fence.masterLost(HostPort.parse(e.previousAddress()), e.previous());
      }
    });
  }

  /** Remembers the masters of the cluster (active and standbys) while some are live. */
  private void rememberMasters() {
    List<String> live = masters.get().live().stream().map(MasterRecord::memberId).toList();
    if (!live.isEmpty()) {
      knownMasters = Set.copyOf(live);
    }
  }

  /**
   * Whether a master this worker knew of (the active one or a standby) is still a member of the
   * cluster as this node sees it: then a takeover or a master record written again may follow, and
   * the worker waits; when none is, this host is cut off or every master died.
   */
  private boolean anyMasterInSight() {
    Set<String> members = new HashSet<>();
    node.hazelcast().getCluster().getMembers().forEach(m -> members.add(m.getUuid().toString()));
    return knownMasters.stream().anyMatch(members::contains);
  }

  /** The failure of a registration that a later one superseded: not a sign of a lost master. */
  static final class Superseded extends RuntimeException {

    Superseded() {
      super("superseded by a later registration", null, false, false);
    }
  }

  @Override
  public Future<?> start() {
    jobs = new JobSupervisor(vertx, context, settings, this::jobEnded, node.records());
    health = new GpuHealthWatch(settings.workerId(), settings.gpus(), settings.gpuDevices());
    fence = fencing == null ? null : new Fence(vertx, fencing, settings.workerId(), jobs::stopAll);
    vertx.eventBus().localConsumer(Addresses.MASTERS_CHANGED, m -> {
      if (m.body() instanceof MastersChanged e) {
        mastersChanged(e);
      }
    });
    Dispatcher requests = new Dispatcher("worker " + settings.workerId(), log)
        .on(Launch.class, this::launch)
        .on(KillJob.class, this::kill)
        .on(ReadLog.class, this::log)
        .on(DownloadLog.class, this::download)
        .on(ReadStatus.class, this::status)
        .on(ListJobs.class, r -> Future.succeededFuture(new JobList(jobs.jobs().stream().map(p -> p.verticle().view()).toList())));
    return jobs.start()
        .compose(v -> claimGpus())
        .compose(v -> vertx.eventBus().consumer(Addresses.worker(settings.workerId()), requests::handle).completion())
        .compose(v -> register())
        .onFailure(e -> releaseGpus())
        .onSuccess(v -> {
          stats = new MapPublisher(vertx, Addresses.STATS_MAP, node.records());
          vertx.setPeriodic(0, STATS_MS, t -> publishStats());
          jobs.pool().topUp();
        });
  }

  /** Host statistics for the monitor and /metrics, in the stats map (this worker is its writer). */
  private void publishStats() {
    rememberMasters();
    if (readingStats) {
      return;
    }
    readingStats = true;
    vertx.executeBlocking(() -> HostStats.sample(settings)).onComplete(ar -> {
      readingStats = false;
      if (ar.succeeded()) {
        long live = jobs.liveProcesses().mapToLong(p -> p.calls()).sum();
        JsonObject s = ar.result().stats().put("callsServed", endedCalls + live);
        stats.put(settings.workerId(), s::encode);
        if (ar.result().gpus() != null) {
          reportHealth(ar.result().gpus());
        }
      }
    });
  }

  /** Tells the JobCenter the health of the lent GPUs when it changed (docs/contract.md §11); retried at the next reading if not taken. */
  private void reportHealth(GpuInventory.Reading reading) {
    if (reportingHealth || jobs.stopping() || (fence != null && fence.masterGone())) {
      return;
    }
    health.next(reading).ifPresent(conditions -> {
      reportingHealth = true;
      GpuHealth report = new GpuHealth(settings.workerId(), node.nodeId(), settings.gpuPolicy().stopJobs(), conditions);
      JobCenterCalls.request(vertx, masters, report, HEALTH_TIMEOUT_MS).onComplete(ar -> {
        reportingHealth = false;
        if (ar.succeeded()) {
          health.told(conditions);
        } else {
          log.warn("could not report the health of its GPUs to the JobCenter: {}", ar.cause().getMessage());
        }
      });
    });
  }

  @Override
  public Future<?> stop() {
    if (stats != null) {
      stats.remove(settings.workerId());
      stats.flush();
    }
    // the GPUs are given up only once the jobs that used them are gone; waiting also lets the jobs' cgroups be removed
    return sayGoodbye().compose(v -> jobs.stopAll("its worker stopped")).compose(n -> releaseGpus());
  }

  /**
   * Tells the JobCenter that this worker stops, before it leaves the cluster: the master logs a stop
   * rather than a member that vanished, and offers nothing here from then on. A worker that never
   * registered, or whose master is gone, has no one to tell; one that is not heard in time is dropped
   * when it leaves the cluster, as before.
   */
  private Future<Void> sayGoodbye() {
    if (identity == null || leaving || (fence != null && fence.masterGone())) {
      return Future.succeededFuture();
    }
    leaving = true;
    return JobCenterCalls.request(vertx, masters, new UnregisterWorker(settings.workerId(), node.nodeId()), GOODBYE_TIMEOUT_MS)
        .<Void>mapEmpty()
        .otherwise(e -> {
          log.warn("could not tell the JobCenter that worker {} stops: {}", settings.workerId(), e.getMessage());
          return null;
        });
  }

  private Future<Void> releaseGpus() {
    GpuLocks held = gpuLocks;
    gpuLocks = null;
    return held == null ? Future.succeededFuture() : vertx.executeBlocking(() -> {
      held.close();
      return null;
    });
  }

  /**
   * Claims this worker's GPUs on its host ({@link GpuLocks}) before it offers them to anyone: a GPU
   * that another worker of this host lends, in this cluster or another, fails the start naming it.
   */
  private Future<Void> claimGpus() {
    if (settings.gpus().isEmpty()) {
      return Future.succeededFuture();
    }
    String holder = "worker " + settings.workerId() + " of the cluster at "
        + masters.get().active().map(MasterRecord::address).orElse("an unknown master") + ", pid " + ProcessHandle.current().pid();
    return vertx.executeBlocking(() -> {
      gpuLocks = GpuLocks.claim(GpuLocks.folder(), GpuLocks.units(settings.gpus(), settings.gpuDevices()), holder);
      return null;
    });
  }

  private Future<Launched> launch(Launch request) {
    if (jobs.stopping() || (fence != null && fence.masterGone())) {
      return Failures.future(ErrorKind.LOST, "worker " + settings.workerId() + " lost its master and is stopping");
    }
    Job job = request.job();
    List<Integer> gpus = job.gpus();
    if (!settings.gpus().containsAll(gpus)) {
      return Failures.future(ErrorKind.INVALID, "worker " + settings.workerId() + " does not lend GPU(s) " + gpus);
    }
    if (!masters.get().isActive(request.grantedBy())) {
      return Failures.future(ErrorKind.LOST, "job " + job.jobId() + " was granted by master " + request.grantedBy()
          + ", which is not the active master any more: ask again");
    }
    Optional<String> conflict = GpuHolds.conflict(granted.values(), job);
    if (conflict.isPresent()) {
      return Failures.future(ErrorKind.INVALID, "worker " + settings.workerId() + " " + conflict.get());
    }
    granted.put(job.jobId(), job);
    JobProcess p = WarmPool.fits(job.maxMemoryMb(), gpus)
        ? jobs.pool().take(gpus).orElseGet(() -> jobs.spawn(gpus, 0, false))
        : jobs.spawn(gpus, job.maxMemoryMb(), false);
    jobs.reserve(p, job);
    jobs.pool().taken(gpus);
    return p.whenReady().onFailure(e -> granted.remove(job.jobId())).map(ready -> {
      // after the answer, which the client waits for: telling the job its id (for its log) and logging it can follow
      context.runOnContext(v -> jobs.assign(ready));
      return new Launched(new JobPlacement(job, settings.host(), ready.lastReady().port(), ready.lastReady().token(),
          ready.lastReady().nonce(), ready.pid(), ready.slot()));
    });
  }

  private Future<Done> kill(KillJob r) {
    return jobs.kill(r.jobId(), r.cause()) ? Future.succeededFuture(new Done())
        : Failures.future(ErrorKind.NOT_FOUND, "no job " + r.jobId() + " runs on worker " + settings.workerId());
  }

  private Future<JobLog> log(ReadLog r) {
    return jobs.job(r.jobId()).map(p -> p.verticle().readLog(r.lines())).orElseGet(() -> unknownJob(r.jobId()));
  }

  /** The whole log of a job (its last {@value LogTail#MAX_DOWNLOAD_BYTES} bytes if longer), for the monitor. */
  private Future<JobLog> download(DownloadLog r) {
    return jobs.job(r.jobId()).map(p -> p.verticle().download()).orElseGet(() -> unknownJob(r.jobId()));
  }

  private Future<JobStatus> status(ReadStatus r) {
    return jobs.job(r.jobId()).map(p -> Future.succeededFuture(new JobStatus(p.verticle().view())))
        .orElseGet(() -> unknownJob(r.jobId()));
  }

  private <T> Future<T> unknownJob(String jobId) {
    return Failures.future(ErrorKind.NOT_FOUND, "worker " + settings.workerId() + " knows no job " + jobId);
  }

  private void jobEnded(JobProcess p, boolean abnormal) {
    endedCalls += p.calls();
    granted.remove(p.jobId());
    if (jobs.stopping()) {
      return; // the JobCenter drops this worker's jobs when it leaves the cluster
    }
    // while a new active master rebuilds the pool there is no JobCenter for a moment: the end is retried
    JobCenterCalls.request(vertx, masters, new EndJob(p.jobId(), settings.workerId(), p.endCause(), abnormal), END_TIMEOUT_MS)
        .onFailure(e -> log.warn("could not report the end of job {} to the JobCenter: {}", p.jobId(), e.getMessage()));
    jobs.pool().topUp();
  }

  /**
   * What this worker promises the JobCenter: how long after a cut its jobs are gone. A worker inside the
   * master's process is never cut off from it, and fences nothing.
   */
  private long fenceMs() {
    return fence == null ? 0 : LossDetection.of(node.hazelcast()).fenceAfterCutMs(Fence.STOP_MS);
  }

  private Future<Registered> register() {
    identity = new RegisterWorker(settings.workerId(), node.nodeId(), settings.hostname(), settings.host(),
        settings.cpus(), Runtime.getRuntime().availableProcessors(), fenceMs(), settings.gpus(),
        settings.gpuDevices().stream().map(GpuDevice::card).toList(), List.of());
    followed = masters.get().active().map(MasterRecord::memberId).orElse(null);
    rememberMasters();
    return register(REGISTER_TIMEOUT_MS);
  }

  /**
   * Registers with the jobs running now, tried again for a while when nobody answers (see
   * {@link JobCenterCalls}: a freshly joined node may find no handler yet, and during a takeover there
   * is no JobCenter for a moment); the JobCenter's list of jobs it could not adopt is stopped. An
   * answer to a registration that a later one superseded is ignored.
   */
  private Future<Registered> register(long attemptMs) {
    int which = ++registration;
    return JobCenterCalls.request(vertx, masters, identity.running(List.copyOf(granted.values())), REGISTER_DEADLINE_MS,
            attemptMs)
        .compose(r -> {
          if (which != registration) {
            return Future.failedFuture(new Superseded());
          }
          health.registered(); // a new JobCenter knows no fault: the next reading reports any again
          for (String jobId : r.stop()) {
            log.warn("the JobCenter did not adopt job {} (its resources conflict): stopping it", jobId);
            jobs.kill(jobId, "the new active master could not adopt it");
          }
          return Future.succeededFuture(r);
        });
  }

}
