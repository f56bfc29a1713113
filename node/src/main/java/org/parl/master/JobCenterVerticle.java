package org.parl.master;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.parl.cluster.Addresses;
import org.parl.cluster.ClusterNode;
import org.parl.cluster.LossDetection;
import org.parl.cluster.MapPublisher;
import org.parl.cluster.MemberLeft;
import org.parl.cluster.OneJob;
import org.parl.control.ClusterType;
import org.parl.control.ControlBus;
import org.parl.control.ControlCodec;
import org.parl.control.ControlReply.Cancelled;
import org.parl.control.ControlReply.Claimed;
import org.parl.control.ControlReply.Done;
import org.parl.control.ControlReply.Granted;
import org.parl.control.ControlReply.GroupGranted;
import org.parl.control.ControlReply.QueueFigures;
import org.parl.control.ControlReply.Registered;
import org.parl.control.ControlReply.Snapshot;
import org.parl.control.ControlReply.WaitingList;
import org.parl.control.Dispatcher;
import org.parl.control.Failures;
import org.parl.control.JobCenterRequest.Allocate;
import org.parl.control.JobCenterRequest.CancelClient;
import org.parl.control.JobCenterRequest.ClaimJobs;
import org.parl.control.JobCenterRequest.Drain;
import org.parl.control.JobCenterRequest.DropGroup;
import org.parl.control.JobCenterRequest.EndJob;
import org.parl.control.JobCenterRequest.GetQueue;
import org.parl.control.JobCenterRequest.GetSnapshot;
import org.parl.control.JobCenterRequest.GetWaiting;
import org.parl.control.JobCenterRequest.GpuHealth;
import org.parl.control.JobCenterRequest.HoldGroup;
import org.parl.control.JobCenterRequest.RegisterWorker;
import org.parl.control.JobCenterRequest.UnregisterWorker;
import org.parl.control.LocalEvent.JobEnded;
import org.parl.control.LocalEvent.WorkerLost;
import org.parl.control.WorkerRequest.KillJob;
import org.parl.control.WorkerRequest.Launch;
import org.parl.ha.Masters;
import org.parl.internal.wire.BadMessageException;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.gateway.GatewayReply;
import org.parl.internal.wire.gateway.GpuFault;
import org.parl.internal.wire.gateway.Job;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the cluster's CPU/GPU pool on the active master: every registration, request, release and
 * loss is decided here, on this verticle's event loop, in order, with no locks. Each change is
 * written through to the cluster maps {@value Addresses#WORKERS_MAP} and {@value Addresses#JOBS_MAP};
 * job ends and losses are published to every master's gateway on {@value Addresses#JOB_EVENTS}.
 *
 * <p>It starts by rebuilding the pool ({@link Rebuild}, docs/contract.md §10): it reads the maps the previous
 * active master wrote (empty in a new cluster), waits until every worker in them whose node is still
 * a member has reported what it runs, or {@link #REPORT_WAIT_MS}, and only then serves requests; those
 * that arrive meanwhile wait.
 */
public final class JobCenterVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(JobCenterVerticle.class);
  /**
   * The longest a registration waits for the lease of a lost worker whose GPUs it would lend: within the
   * worker's own wait for an answer, so that a worker restarted in place joins as soon as the lease ends.
   */
  static final long LEASE_WAIT_MAX_MS = 8_000;
  private static final Future<Done> DONE = Future.succeededFuture(new Done());
  /** How long a new active master waits for the workers' reports before it serves without the missing ones. */
  static final long REPORT_WAIT_MS = 3_000;
  private static final long KILL_TIMEOUT_MS = 10_000;
  /** How often quarantined GPUs that read healthy are checked for their healthy time. */
  static final long HEALTHY_CHECK_MS = 1_000;

  private final ClusterNode node;
  private final ClusterType type;
  private final int maxGpusPerActor;
  private final int maxWaitingPerClient;
  private final boolean allowPreemption;
  private final Supplier<Masters> masters;
  /** Jobs being stopped to make room for a create of higher priority, with why: their end says they were preempted. */
  private final Map<String, String> preempted = new HashMap<>();
  private JobCenter<Waiter> center;
  private MapPublisher workersMap;
  private MapPublisher jobsMap;
  /** Jobs granted since this JobCenter started (counted on its event loop). */
  private long jobsStarted;
  /** Jobs lost since this JobCenter started: their process or their worker died. */
  private long jobsLost;
  private ClientSweep sweep;
  /** Hazelcast member UUID to the Vert.x node id its workers registered with. */
  private final Map<String, String> nodesByMember = new HashMap<>();
  /** Completed once the pool is rebuilt: requests wait for it. */
  private final Promise<Void> serving = Promise.promise();
  /** Reports that arrived while rebuilding, by worker id, with the promise of their answer. */
  private final Map<String, Report> reports = new LinkedHashMap<>();
  private Set<String> expected = Set.of();
  /** Finishes the rebuild early, once every expected worker has reported. */
  private Runnable expectedReported = () -> { };
  private long startedAt;
  /** How soon this master tells that a worker is gone: what a lost worker's lease is computed from. */
  private LossDetection detection;

  private record Report(RegisterWorker worker, Promise<Registered> answer) {}

  /** Who waits in the JobCenter's queue: a create's reply, or a placement group's. */
  private sealed interface Waiter {

    void fail(Throwable cause);

    record ForActor(Promise<Granted> reply) implements Waiter {
      @Override
      public void fail(Throwable cause) {
        reply.tryFail(cause);
      }
    }

    record ForGroup(Promise<GroupGranted> reply) implements Waiter {
      @Override
      public void fail(Throwable cause) {
        reply.tryFail(cause);
      }
    }
  }

  /** Most jobs remembered as stopped here, whose worker will still report their end. */
  private static final int STOPPED_REMEMBERED = 4096;
  /** Jobs this JobCenter released and told their worker to stop, with their worker: their end report is expected. */
  private final Map<String, String> stoppedHere = new LinkedHashMap<>(16, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
      return size() > STOPPED_REMEMBERED;
    }
  };

  /**
   * @param maxWaitingPerClient how many creates of one client may wait at once (docs/contract.md §8)
   * @param masters the live masters, as this node's directory sees them: their gateways are asked
   *     which jobs their clients hold
   */
  public JobCenterVerticle(ClusterNode node, ClusterType type, int maxGpusPerActor, int maxWaitingPerClient,
      boolean allowPreemption, Supplier<Masters> masters) {
    this.maxWaitingPerClient = maxWaitingPerClient;
    this.allowPreemption = allowPreemption;
    this.node = node;
    this.type = type;
    this.maxGpusPerActor = maxGpusPerActor;
    this.masters = masters;
  }

  @Override
  public Future<?> start() {
    startedAt = System.nanoTime();
    detection = LossDetection.of(node.hazelcast());
    workersMap = new MapPublisher(vertx, Addresses.WORKERS_MAP, node.records());
    jobsMap = new MapPublisher(vertx, Addresses.JOBS_MAP, node.records());
    sweep = new ClientSweep(vertx, () -> masters.get().live(), () -> new LinkedHashSet<>(jobIds()), this::stopOrphan);
    node.onMemberRemoved(left -> context.runOnContext(v -> memberGone(left)));
    Dispatcher requests = new Dispatcher("the JobCenter", log)
        .on(RegisterWorker.class, this::register)
        .on(UnregisterWorker.class, r -> whenServing(() -> unregister(r)))
        .on(Allocate.class, r -> whenServing(() -> allocate(r)))
        .on(HoldGroup.class, r -> whenServing(() -> holdGroup(r)))
        .on(DropGroup.class, r -> whenServing(() -> dropGroup(r)))
        .on(EndJob.class, r -> whenServing(() -> end(r)))
        .on(CancelClient.class, r -> whenServing(() -> cancel(r)))
        .on(ClaimJobs.class, r -> whenServing(() -> Future.succeededFuture(
            new Claimed(center.claim(r.clientId(), r.jobIds())))))
        .on(GetSnapshot.class, r -> whenServing(() -> Future.succeededFuture(snapshot())))
        .on(GetWaiting.class, r -> whenServing(() -> Future.succeededFuture(new WaitingList(center.waiting()))))
        .on(Drain.class, r -> whenServing(() -> drain(r)))
        .on(GpuHealth.class, r -> whenServing(() -> gpuHealth(r)))
        .on(GetQueue.class, r -> whenServing(() -> Future.succeededFuture(
            new QueueFigures(center.waitingCount(), center.longestWaitMillis(), center.mostWaitingOfOneClient(),
                jobsStarted, jobsLost, center.waitingByReason()))));
    vertx.eventBus().consumer(Addresses.JOB_CENTER, requests::handle);
    vertx.eventBus().consumer(Addresses.jobCenter(node.memberId()), requests::handle);
    vertx.setPeriodic(HEALTHY_CHECK_MS, t -> {
      if (serving.future().isComplete()) {
        restoreHealthy();
      }
    });
    Future<Map<String, String>> workers = entries(Addresses.WORKERS_MAP);
    Future<Map<String, String>> jobs = entries(Addresses.JOBS_MAP);
    Future.all(workers, jobs).onComplete(ar -> {
      Map<String, String> w = ar.succeeded() ? workers.result() : Map.of();
      Map<String, String> j = ar.succeeded() ? jobs.result() : Map.of();
      if (ar.failed()) {
        log.warn("could not read the cluster maps to rebuild the pool ({}): rebuilding from the workers' reports alone",
            ar.cause().getMessage());
      }
      awaitReports(w, j);
    });
    return Future.succeededFuture();
  }

  private Future<Map<String, String>> entries(String name) {
    return vertx.sharedData().<String, String>getClusterWideMap(name).compose(AsyncMap::entries)
        .map(entries -> node.records().verifyAll(name, entries)); // a record not signed with the token is no evidence
  }

  private <T> Future<T> whenServing(Supplier<Future<T>> work) {
    return serving.future().isComplete() ? work.get() : serving.future().compose(v -> work.get());
  }

  /** Waits for the reports of the mapped workers whose node is still a member, for a while. */
  private void awaitReports(Map<String, String> mappedWorkers, Map<String, String> mappedJobs) {
    Set<String> live = new LinkedHashSet<>();
    mappedWorkers.forEach((id, json) -> {
      String nodeId = field(json, "nodeId");
      if (nodeId != null && node.memberOfNode(nodeId).isPresent()) {
        live.add(id);
      }
    });
    expected = live;
    List<Job> jobs = new ArrayList<>();
    mappedJobs.values().forEach(json -> {
      try {
        jobs.add(ControlCodec.fromJson(json, Job.class));
      } catch (BadMessageException e) {
        log.warn("ignored a malformed job record in the cluster map: {}", e.getMessage());
      }
    });
    Runnable finish = () -> rebuild(mappedWorkers.keySet(), jobs);
    if (expected.isEmpty()) {
      finish.run();
      return;
    }
    log.info("rebuilding the pool: waiting for {} worker(s) to report their jobs", expected.size());
    long timer = vertx.setTimer(REPORT_WAIT_MS, t -> finish.run());
    expectedReported = () -> {
      vertx.cancelTimer(timer);
      finish.run();
    };
  }

  private static String field(String json, String name) {
    try {
      return new JsonObject(json).getString(name);
    } catch (RuntimeException e) {
      return null;
    }
  }

  private void rebuild(Set<String> mappedWorkers, List<Job> mappedJobs) {
    if (serving.future().isComplete()) {
      return;
    }
    List<RegisterWorker> reported = reports.values().stream().map(Report::worker).toList();
    Rebuild.Rebuilt<Waiter> r = Rebuild.run(type, maxGpusPerActor, maxWaitingPerClient, mappedWorkers,
        mappedJobs, reported);
    center = r.center();
    for (String id : r.dropped()) {
      workersMap.remove(id);
    }
    for (Job job : r.released()) {
      jobsMap.remove(job.jobId());
      tellGateways(job.jobId(), job.clientId(), job.workerId(), "its worker no longer runs it (found when a master "
          + "took over)", true);
    }
    for (Report report : reports.values()) {
      RegisterWorker w = report.worker();
      JobCenter.Registration<Waiter> reg = r.registrations().get(w.workerId());
      if (reg == null) {
        report.answer().fail(Failures.exception(ErrorKind.INVALID, r.refused().get(w.workerId())));
      } else {
        report.answer().complete(registered(w, reg));
      }
    }
    serving.complete();
    int adopted = center.jobs().size();
    if (!reported.isEmpty() || !mappedJobs.isEmpty()) {
      log.info("active: rebuilt the pool in {} ms from {} worker report(s): {} job(s) adopted, {} released, {} worker(s) dropped",
          (System.nanoTime() - startedAt) / 1_000_000, reported.size(), adopted, r.released().size(), r.dropped().size());
      sweep.schedule("a master took over");
    }
    reports.clear();
  }

  private Future<Registered> register(RegisterWorker w) {
    // Vert.x messages name no sender: the cheap check is that the node it claims is a member now
    // (the event bus's TLS is what keeps strangers out altogether)
    Optional<String> member = node.memberOfNode(w.nodeId());
    if (member.isEmpty()) {
      log.warn("refused worker {} from {}: its node {} is not a cluster member", w.workerId(), w.hostname(), w.nodeId());
      return Failures.future(ErrorKind.INVALID, "worker " + w.workerId() + " names node " + w.nodeId()
          + ", which is not (or not exactly one) member of this cluster");
    }
    if (!serving.future().isComplete()) {
      Promise<Registered> answer = Promise.promise();
      Report old = reports.put(w.workerId(), new Report(w, answer));
      if (old != null) {
        old.answer().fail(Failures.exception(ErrorKind.INVALID, "worker " + w.workerId() + " reported again"));
      }
      if (reports.keySet().containsAll(expected)) {
        expectedReported.run();
      }
      return answer.future();
    }
    Optional<JobCenter.Hold> lease = center.leaseHolding(w);
    long leaseLeftMs = lease.map(h -> TimeUnit.NANOSECONDS.toMillis(h.untilNanos() - System.nanoTime())).orElse(0L);
    if (leaseLeftMs > 0 && leaseLeftMs <= LEASE_WAIT_MAX_MS) {
      log.info("worker {} from {} waits {} ms for the lease of worker {}, which left without a word and lent the same GPUs",
          w.workerId(), w.hostname(), leaseLeftMs, lease.get().worker().workerId());
      Promise<Void> leaseOver = Promise.promise();
      vertx.setTimer(leaseLeftMs + 1, t -> leaseOver.complete());
      return leaseOver.future().compose(v -> register(w));
    }
    JobCenter.Registration<Waiter> reg;
    try {
      reg = center.register(w);
    } catch (Rejected r) {
      log.warn("refused worker {} from {}: {}", w.workerId(), w.hostname(), r.getMessage());
      return Failures.future(r.kind(), r.getMessage());
    }
    return Future.succeededFuture(registered(w, reg));
  }

  /** Publishes a worker that joined (with the jobs the pool adopted from it) and serves what waited for it. */
  private Registered registered(RegisterWorker w, JobCenter.Registration<Waiter> reg) {
    node.memberOfNode(w.nodeId()).ifPresent(member -> nodesByMember.put(member, w.nodeId()));
    log.info("worker {} joined from {} ({}): {}{}", w.workerId(), w.hostname(), w.host(),
        type == ClusterType.GPU ? "GPUs " + w.gpus() : type == ClusterType.MIXED ? w.cpus() + " CPUs and GPUs " + w.gpus()
            : w.cpus() + " CPUs",
        w.jobs().isEmpty() ? "" : ", running " + reg.adopted().size() + " job(s) adopted and " + reg.stop().size() + " to stop");
    reg.stop().forEach((job, why) -> log.warn("worker {} must stop job {}: {}", w.workerId(), job, why));
    for (Job job : reg.adopted()) {
      jobsMap.put(job.jobId(), () -> ControlCodec.json(job));
    }
    publishWorker(w.workerId());
    grant(reg.granted());
    return new Registered(type, List.copyOf(reg.stop().keySet()));
  }

  /** A worker's goodbye: an orderly stop, logged as such, and what it lent leaves the pool now. */
  private Future<Done> unregister(UnregisterWorker r) {
    if (center.worker(r.workerId()).filter(w -> w.nodeId().equals(r.nodeId())).isEmpty()) {
      return Failures.future(ErrorKind.NOT_FOUND, "no worker " + r.workerId() + " is registered from node " + r.nodeId());
    }
    center.removeWorker(r.workerId()).ifPresent(lost -> {
      String cause = "worker " + r.workerId() + " on " + lost.worker().hostname() + " left (it stopped)";
      log.info("{}; dropped it and {} job(s) from the pool", cause, lost.jobs().size());
      removed(lost);
      tellLost(lost, cause);
    });
    return DONE;
  }

  private Future<Granted> allocate(Allocate request) {
    if (request.create().preempt() && !allowPreemption) {
      return Failures.future(ErrorKind.INVALID, "this cluster does not allow preemption: its operator starts the master "
          + "with --allow-preemption; create without preempt(true) to wait in priority order");
    }
    Promise<Granted> reply = Promise.promise();
    JobCenter.Submitted submitted;
    try {
      submitted = center.submit(request, new Waiter.ForActor(reply));
    } catch (Rejected r) {
      return Failures.future(r.kind(), r.getMessage());
    }
    if (submitted.job().isPresent()) {
      return Future.succeededFuture(granted(submitted.job().get()));
    }
    long requestId = submitted.requestId();
    preempt();
    return timed(reply, requestId, request.timeoutMs(),
        () -> timeoutMessage("no worker had " + submitted.resources().vacantWords(), request.timeoutMs(), center.reason(requestId)));
  }

  private Future<GroupGranted> holdGroup(HoldGroup request) {
    Promise<GroupGranted> reply = Promise.promise();
    JobCenter.GroupSubmitted submitted;
    try {
      submitted = center.submitGroup(request, new Waiter.ForGroup(reply));
    } catch (Rejected r) {
      return Failures.future(r.kind(), r.getMessage());
    }
    if (submitted.group().isPresent()) {
      return Future.succeededFuture(heldGroup(submitted.group().get()));
    }
    long requestId = submitted.requestId();
    long timeoutMs = request.reserve().timeoutMs();
    return timed(reply, requestId, timeoutMs, () -> timeoutMessage("no placement held placement group " + submitted.request(),
        timeoutMs, center.reason(requestId)));
  }

  /** A waiting request's answer, failed with {@code message} when {@code timeoutMs} runs out first. */
  private <T> Future<T> timed(Promise<T> reply, long requestId, long timeoutMs, Supplier<String> message) {
    long timer = vertx.setTimer(Math.max(1, timeoutMs), t -> {
      String why = message.get();
      center.timeout(requestId).ifPresent(w -> w.fail(Failures.exception(ErrorKind.RESOURCE, why)));
    });
    return reply.future().onComplete(ar -> vertx.cancelTimer(timer));
  }

  private GroupGranted heldGroup(GroupGranted g) {
    log.info("placement group {} held: {}", g.groupId(),
        g.bundles().stream().map(b -> b.workerId() + (b.gpus().isEmpty() ? "" : " GPUs " + b.gpus())).toList());
    g.bundles().stream().map(GatewayReply.BundleHeld::workerId).distinct().forEach(this::publishWorker);
    return g;
  }

  private Future<Done> dropGroup(DropGroup r) {
    try {
      center.removeGroup(r.groupId(), r.clientId()).ifPresent(this::groupEnded);
    } catch (Rejected e) {
      return Failures.future(e.kind(), e.getMessage());
    }
    grant(center.drain());
    return DONE;
  }

  /**
   * A placement group ended: its idle bundles are back in the pool; its actors are stopped, and what they
   * hold returns when their workers report them ended, so that nothing is lent again while they may run.
   */
  private void groupEnded(JobCenter.GroupEnded ended) {
    log.info("placement group {} of client {} ended ({}): stopping its {} actor(s)", ended.groupId(), ended.clientId(),
        ended.cause(), ended.jobs().size());
    for (Job job : ended.jobs()) {
      stop(job, ended.cause());
    }
    ended.workers().forEach(this::publishWorker);
  }

  /** Only for the job's own worker: anyone else's report would free GPUs that a live job still uses. */
  private Future<Done> end(EndJob r) {
    var job = center.job(r.jobId());
    if (job.isEmpty() && r.workerId().equals(stoppedHere.remove(r.jobId()))) {
      return DONE; // released when this JobCenter stopped it: its worker confirms the end
    }
    if (job.isEmpty() || !job.get().workerId().equals(r.workerId())) {
      return Failures.future(ErrorKind.NOT_FOUND, "no job " + r.jobId() + " on worker " + r.workerId() + " holds resources");
    }
    String preemption = preempted.remove(r.jobId());
    if (preemption != null) { // its process tree is gone: only now are its units lent again
      release(job.get(), preemption, true, null, true);
    } else {
      release(job.get(), r.cause(), r.lost());
    }
    return DONE;
  }

  private void release(Job job, String cause, boolean lost) {
    release(job, cause, lost, null, false);
  }

  private void release(Job job, String cause, boolean lost, GpuFault fault, boolean wasPreempted) {
    if (lost) {
      jobsLost++;
    }
    center.end(job.jobId());
    jobsMap.remove(job.jobId());
    publishWorker(job.workerId());
    ControlBus.publish(vertx, Addresses.JOB_EVENTS, new JobEnded(job.jobId(), job.clientId(), job.workerId(), cause, lost,
        fault, wasPreempted));
    grant(center.drain());
  }

  /**
   * Stops the jobs that waiting creates of higher priority preempt; what each holds is released when its
   * worker reports it ended ({@link #end}), so that no unit is lent while a preempted process may still run.
   */
  private void preempt() {
    for (JobCenter.Preempting p : center.takePreemptions()) {
      log.info("{}: stopping job(s) {}", p.cause(), p.victims().stream().map(Job::jobId).toList());
      for (Job job : p.victims()) {
        preempted.put(job.jobId(), p.cause());
        stop(job, p.cause());
      }
    }
  }

  /**
   * A worker's GPU health report (docs/contract.md §11): each GPU that turned faulty is quarantined, and the jobs
   * on it are stopped with the typed fault (their clients' calls fail with {@code GpuFaultException}),
   * unless the worker's operator chose "warn only".
   */
  private Future<Done> gpuHealth(GpuHealth r) {
    List<JobCenter.Quarantined> quarantined;
    try {
      quarantined = center.gpuHealth(r, System.nanoTime());
    } catch (Rejected e) {
      return Failures.future(e.kind(), e.getMessage());
    }
    for (JobCenter.Quarantined q : quarantined) {
      GpuFault f = q.fault();
      log.warn("{}; quarantined it: nothing is placed there until it has been healthy for {} s, or "
          + "'parl undrain {}:{}'", f.describe(), center.healthyAfterMs() / 1000.0, f.workerId(), f.index());
      if (q.jobs().isEmpty()) {
        continue;
      }
      List<String> ids = q.jobs().stream().map(Job::jobId).toList();
      if (!r.stopJobs()) {
        log.warn("worker {} runs with --gpu-faults warn: job(s) {} keep running on faulty GPU {}", f.workerId(), ids,
            f.index());
        continue;
      }
      log.warn("stopping job(s) {} on faulty GPU {} of worker {}", ids, f.index(), f.workerId());
      String cause = f.describe();
      for (Job job : q.jobs()) {
        if (center.job(job.jobId()).isEmpty()) {
          continue; // a job on two GPUs that failed together: stopped already
        }
        release(job, cause, true, f, false);
        stoppedHere.put(job.jobId(), job.workerId());
        stop(job, cause);
      }
    }
    if (!quarantined.isEmpty()) {
      publishWorker(r.workerId());
    }
    return DONE;
  }

  /** Puts back the quarantined GPUs that have been healthy long enough, and serves what waits for them. */
  private void restoreHealthy() {
    List<GpuFault> back = center.restoreHealthy(System.nanoTime());
    for (GpuFault f : back) {
      log.info("GPU {} of worker {} is back in service: healthy for {} s since its fault ({})", f.index(), f.workerId(),
          center.healthyAfterMs() / 1000.0, f.fault());
      publishWorker(f.workerId());
    }
    if (!back.isEmpty()) {
      grant(center.drain());
    }
  }

  /** Tells a job's worker to stop it; a failure is logged (the job's end, or its worker's loss, is reported anyway). */
  private void stop(Job job, String cause) {
    OneJob.request(vertx, job.workerId(), job.jobId(), new KillJob(job.jobId(), cause), KILL_TIMEOUT_MS)
        .onFailure(e -> log.warn("could not stop job {} on worker {}: {}", job.jobId(), job.workerId(), e.getMessage()));
  }

  /** A job that no client holds after a master left: released here, and stopped on its worker. */
  private void stopOrphan(String jobId) {
    center.job(jobId).ifPresent(job -> {
      String cause = "its client was gone after a master left";
      release(job, cause, true);
      stoppedHere.put(jobId, job.workerId());
      stop(job, cause);
    });
  }

  private Future<Cancelled> cancel(CancelClient r) {
    List<Waiter> cancelled = center.cancelClient(r.clientId());
    cancelled.forEach(w -> w.fail(Failures.exception(ErrorKind.LOST, "client " + r.clientId() + " disconnected")));
    center.removeGroupsOf(r.clientId()).forEach(this::groupEnded);
    grant(center.drain());
    return Future.succeededFuture(new Cancelled(cancelled.size()));
  }

  /**
   * Drops the workers of a member that left, recognised by the member UUID seen when they
   * registered: a member that merely announces the same Vert.x node id changes nothing. A master
   * that left takes its gateway's waiting requests along, and maybe some clients.
   */
  private void memberGone(MemberLeft left) {
    if (!serving.future().isComplete()) {
      serving.future().onSuccess(v -> memberGone(left));
      return;
    }
    List<Waiter> orphaned = center.cancelGateway(left.memberId());
    if (!orphaned.isEmpty()) {
      orphaned.forEach(w -> w.fail(Failures.exception(ErrorKind.LOST, "the master that asked left")));
      grant(center.drain());
    }
    String nodeId = nodesByMember.remove(left.memberId());
    if (nodeId == null) { // a master (or a monitor): its gateway's clients resume elsewhere, or are gone
      sweep.schedule("member " + left.memberId() + " left");
      return;
    }
    long now = System.nanoTime();
    for (JobCenter.Leased leased : center.loseNode(nodeId, w -> now + leaseNanos(w))) {
      JobCenter.Lost lost = leased.lost();
      RegisterWorker w = lost.worker();
      String cause = "worker " + w.workerId() + " on " + w.hostname()
          + " left the cluster without a word (it died, froze or lost its network)";
      long leaseMs = TimeUnit.NANOSECONDS.toMillis(leased.hold().untilNanos() - now);
      log.warn("{}; dropped it and {} job(s) from the pool; its GPUs stay held, and its clients are told, when its "
          + "lease ends in {} ms", cause, lost.jobs().size(), leaseMs);
      removed(lost);
      vertx.setTimer(Math.max(1, leaseMs), t -> {
        center.endLease(leased.hold());
        log.info("the lease of worker {} ended {} ms after it was dropped: its {} job(s) and its GPUs {} are released",
            w.workerId(), leaseMs, lost.jobs().size(), w.gpus());
        tellLost(lost, cause);
      });
    }
  }

  /**
   * How long after this master dropped worker {@code w} its jobs are surely gone: what the worker stated
   * of its fence, counted from this master's own detection (docs/contract.md §7).
   */
  private long leaseNanos(RegisterWorker w) {
    return TimeUnit.MILLISECONDS.toNanos(detection.leaseAfterDropMs(w.fenceMs()));
  }

  /** The worker and its jobs leave the pool and the maps: nothing is placed there any more. */
  private void removed(JobCenter.Lost lost) {
    center.takeEndedGroups().forEach(this::groupEnded);
    failNeverFitting();
    jobsLost += lost.jobs().size();
    workersMap.remove(lost.worker().workerId());
    for (Job job : lost.jobs()) {
      preempted.remove(job.jobId());
      jobsMap.remove(job.jobId());
    }
  }

  /** The clients of the worker's jobs, and anyone listening, hear that they are lost. */
  private void tellLost(JobCenter.Lost lost, String cause) {
    for (Job job : lost.jobs()) {
      tellGateways(job.jobId(), job.clientId(), job.workerId(), cause, true);
    }
    ControlBus.publish(vertx, Addresses.WORKER_LOST, new WorkerLost(lost.worker().workerId(), cause));
  }

  private void grant(List<JobCenter.Granted<Waiter>> granted) {
    for (JobCenter.Granted<Waiter> g : granted) {
      if (g.handle() instanceof Waiter.ForActor a) {
        a.reply().complete(granted(g.job()));
      } else if (g.handle() instanceof Waiter.ForGroup w) {
        w.reply().complete(heldGroup(g.group()));
      }
    }
    preempt();
  }

  private Granted granted(Job job) {
    jobsStarted++;
    jobsMap.put(job.jobId(), () -> ControlCodec.json(job));
    publishWorker(job.workerId());
    var worker = center.worker(job.workerId()).orElseThrow();
    return new Granted(new Launch(job, node.memberId()), worker.nodeId());
  }

  private void publishWorker(String workerId) {
    workersMap.put(workerId, () -> center.workerState(workerId).map(ControlCodec::json).orElse("{}"));
  }

  private void tellGateways(String jobId, String clientId, String workerId, String cause, boolean lost) {
    ControlBus.publish(vertx, Addresses.JOB_EVENTS, new JobEnded(jobId, clientId, workerId, cause, lost));
  }

  private List<String> jobIds() {
    return center.jobs().stream().map(Job::jobId).toList();
  }

  private String timeoutMessage(String what, long timeoutMs, Optional<String> reason) {
    return what + " within " + (timeoutMs / 1000.0) + " s ("
        + center.workerCount() + " worker(s), " + center.jobs().size() + " job(s) running, " + (center.waitingCount() - 1)
        + " other request(s) waiting); last reason: " + reason.orElse("none known")
        + ". Close actors, add workers, or wait longer (ConnectOptions.resourceWaitTimeout)";
  }

  private Future<Done> drain(Drain r) {
    Optional<GpuFault> fault = r.drained() || r.gpu() == null ? Optional.empty() : center.quarantined(r.workerId(), r.gpu());
    try {
      grant(center.drain(r.workerId(), r.gpu(), r.drained()));
    } catch (Rejected e) {
      return Failures.future(e.kind(), e.getMessage());
    }
    log.info("{} {}{}{}", r.drained() ? "drained" : "undrained", r.workerId(), r.gpu() == null ? "" : " GPU " + r.gpu(),
        fault.map(f -> " and lifted its quarantine by hand (" + f.fault() + ")").orElse(""));
    publishWorker(r.workerId());
    return DONE;
  }

  /** Fails at once the waiting requests that no worker left could hold, instead of letting them wait out their time. */
  private void failNeverFitting() {
    center.dropNeverFitting().forEach((waiter, why) -> waiter.fail(Failures.exception(ErrorKind.INVALID, why)));
  }

  private Snapshot snapshot() {
    String invariant = "ok";
    try {
      center.checkInvariants();
    } catch (IllegalStateException e) {
      log.error("{}", e.getMessage());
      invariant = e.getMessage();
    }
    return center.snapshot(invariant);
  }
}
