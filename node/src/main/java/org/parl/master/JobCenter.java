package org.parl.master;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToLongFunction;
import org.parl.control.ClusterType;
import org.parl.control.ControlReply.GroupGranted;
import org.parl.control.ControlReply.Snapshot;
import org.parl.control.JobCenterRequest.Allocate;
import org.parl.control.JobCenterRequest.GpuCondition;
import org.parl.control.JobCenterRequest.GpuHealth;
import org.parl.control.JobCenterRequest.HoldGroup;
import org.parl.control.JobCenterRequest.RegisterWorker;
import org.parl.internal.resources.Allocation;
import org.parl.internal.resources.GroupRequest;
import org.parl.internal.resources.ResourceRequest;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.gateway.GatewayReply;
import org.parl.internal.wire.gateway.GpuFault;
import org.parl.internal.wire.gateway.GroupRecord;
import org.parl.internal.wire.gateway.Job;
import org.parl.internal.wire.gateway.WaitingCreate;
import org.parl.internal.wire.gateway.WorkerState;
import org.parl.limits.LimitSettings;
import org.parl.scheduler.GpuSpec;
import org.parl.scheduler.Preemptible;
import org.parl.scheduler.ResourcePool;
import org.parl.scheduler.Scheduler;
import org.parl.scheduler.WorkerView;

/**
 * The JobCenter's decisions, without Vert.x: which workers are in the pool, which requests are
 * accepted, which job holds what. {@link JobCenterVerticle} owns one instance and calls it from
 * its event loop only, then publishes the results.
 *
 * @param <H> what the caller attaches to a waiting request (its reply promise)
 */
public final class JobCenter<H> {

  /** A request granted after waiting, with the caller's handle: an actor's job, or a placement group (the other null). */
  public record Granted<H>(H handle, Job job, GroupGranted group) {

    public Granted(H handle, Job job) {
      this(handle, job, null);
    }
  }

  /**
   * A placement group that ended: the jobs of its actors, to stop (their allocations return as they end), and
   * the workers of its bundles, whose vacancies changed.
   */
  public record GroupEnded(String groupId, String clientId, String cause, List<Job> jobs, List<String> workers) {}

  /** Running jobs to stop for a waiting create that may preempt them: each is released only when it has ended. */
  public record Preempting(long requestId, List<Job> victims, String cause) {}

  /** The outcome of a group's submission: held now, or a queued request id to time out later. */
  public record GroupSubmitted(long requestId, Optional<GroupGranted> group, GroupRequest request) {}

  /** A worker that left the pool, with the jobs it took along. */
  public record Lost(RegisterWorker worker, List<Job> jobs) {}

  /** A GPU of a worker that left without a word, held until {@code untilNanos} ({@link System#nanoTime}): its lease. */
  public record Hold(RegisterWorker worker, long untilNanos) {}

  /** A worker that left without a word: what it took along, and the lease that holds its GPUs. */
  public record Leased(Lost lost, Hold hold) {}

  /**
   * The outcome of a submission: a job now, or a queued request id to time out later; with the request as
   * the pool reads it (what it waits for).
   */
  public record Submitted(long requestId, Optional<Job> job, ResourceRequest resources) {}

  /**
   * The outcome of a registration: requests served with the new worker's resources, the jobs it
   * reported and the pool adopted, and those it must stop (with why).
   */
  public record Registration<H>(List<Granted<H>> granted, List<Job> adopted, Map<String, String> stop) {}

  /**
   * A GPU just quarantined, with the jobs that hold it (still in the pool: the caller ends them, or
   * lets them run when the worker's operator chose "warn only").
   */
  public record Quarantined(GpuFault fault, List<Job> jobs) {}

  /**
   * What waits in the queue: an actor's create, or a placement group with its bundles as admitted here (the
   * others null), and the caller's handle.
   */
  private record Waiting<H>(Allocate request, HoldGroup group, GroupRequest admitted, H handle) {

    String clientId() {
      return request != null ? request.clientId() : group.clientId();
    }

    String gateway() {
      return request != null ? request.gateway() : group.gateway();
    }

    boolean waitForWorkers() {
      return request != null ? request.waitForWorkers() : group.reserve().waitForWorkers();
    }
  }

  /** How long after a JobCenter starts its workers may still be arriving. */
  static final long WORKERS_ARRIVING_NANOS = 3_000_000_000L;

  private final ClusterType type;
  private final int maxGpusPerActor;
  private final int maxWaitingPerClient;
  private final ResourcePool pool = new ResourcePool();
  private final Scheduler<Waiting<H>> scheduler;
  private final Map<String, RegisterWorker> workers = new LinkedHashMap<>();
  private final Map<String, Job> jobs = new LinkedHashMap<>();
  private final PlacementGroups groups = new PlacementGroups();
  /** The priority of each job that may be preempted: jobs of creates made here outside placement groups. */
  private final Map<String, Integer> priorities = new HashMap<>();
  private final Preemptible preemptible = new Preemptible() {
    @Override
    public int priorityOf(String jobId) {
      return priorities.getOrDefault(jobId, -1);
    }

    @Override
    public long startOrder(String jobId) {
      return jobNumber(jobId);
    }
  };
  /** Groups that ended with a worker they held, until the caller takes them ({@link #takeEndedGroups}). */
  private final List<GroupEnded> endedGroups = new ArrayList<>();
  /** Which worker lends each physical GPU, by UUID: a GPU two workers report is lent by the first only. */
  private final Map<String, String> lenders = new HashMap<>();
  /** The GPUs of workers that left without a word, by UUID, while their jobs may still run. */
  private final Map<String, Hold> held = new HashMap<>();
  private final GpuQuarantine quarantine = GpuQuarantine.configured();
  private long jobCounter;
  private final long startedNanos;

  public JobCenter(ClusterType type, int maxGpusPerActor) {
    this(type, maxGpusPerActor, LimitSettings.DEFAULTS.maxWaitingPerClient(), 1);
  }

  /**
   * @param maxWaitingPerClient how many requests of one client may wait at once (docs/contract.md §8)
   * @param firstJobNumber the number of the first job id granted here ({@code job-N}): after a
   *     takeover, beyond every id the previous master may have handed out
   */
  public JobCenter(ClusterType type, int maxGpusPerActor, int maxWaitingPerClient, long firstJobNumber) {
    this(type, maxGpusPerActor, maxWaitingPerClient, firstJobNumber, System.nanoTime());
  }

  /** @param startedNanos when it started ({@link System#nanoTime}): workers are taken as arriving for a while after */
  JobCenter(ClusterType type, int maxGpusPerActor, int maxWaitingPerClient, long firstJobNumber, long startedNanos) {
    this.maxWaitingPerClient = maxWaitingPerClient;
    this.type = type;
    this.maxGpusPerActor = maxGpusPerActor;
    this.jobCounter = firstJobNumber - 1;
    this.scheduler = new Scheduler<>(pool, this::nextJobId);
    this.startedNanos = startedNanos;
  }

  private String nextJobId() {
    return "job-" + (++jobCounter);
  }

  /** The number in a job id {@code job-N}, or 0 for an id of another form. */
  public static long jobNumber(String jobId) {
    if (jobId.startsWith("job-") && jobId.length() > 4 && jobId.length() <= 22) {
      try {
        return Math.max(0, Long.parseLong(jobId.substring(4)));
      } catch (NumberFormatException e) {
        return 0;
      }
    }
    return 0;
  }

  public ClusterType type() {
    return type;
  }

  public int maxGpusPerActor() {
    return maxGpusPerActor;
  }

  /**
   * Adds a worker with the jobs it reports (adopting each one whose resources are free, docs/contract.md §10),
   * then serves what was waiting for it. The same worker registering again from the same node (a
   * retry whose first answer was lost) changes nothing.
   *
   * @throws Rejected when the worker cannot join this cluster
   */
  public Registration<H> register(RegisterWorker w) {
    RegisterWorker known = workers.get(w.workerId());
    if (known != null && known.nodeId().equals(w.nodeId())) {
      return new Registration<>(List.of(), List.of(), Map.of());
    }
    if (known != null) {
      throw new Rejected(ErrorKind.INVALID, "worker " + w.workerId() + " is already registered");
    }
    if (type == ClusterType.MIXED && w.cpus() < 1) {
      throw new Rejected(ErrorKind.INVALID, "worker " + w.workerId() + " offers no CPUs: a worker of a mixed cluster lends "
          + "at least 1 CPU");
    }
    if (type == ClusterType.GPU && w.gpus().isEmpty()) {
      throw new Rejected(ErrorKind.MISMATCH, "this is a GPU cluster and worker " + w.workerId() + " on "
          + w.hostname() + " offers no GPUs: start it on a host with GPUs, or with --gpus listing some");
    }
    if (type == ClusterType.CPU && !w.gpus().isEmpty()) {
      throw new Rejected(ErrorKind.MISMATCH, "this is a CPU cluster and worker " + w.workerId() + " on "
          + w.hostname() + " offers GPUs " + w.gpus() + ": start the master with --gpu-cluster to use GPUs, "
          + "or start the worker with --cpus instead");
    }
    if (type == ClusterType.CPU && w.cpus() < 1) {
      throw new Rejected(ErrorKind.INVALID, "worker " + w.workerId() + " offers no CPUs");
    }
    List<GpuSpec> gpus = GpuSpecs.of(w);
    for (GpuSpec g : gpus) {
      Optional<Hold> hold = holding(g);
      if (hold.isPresent()) {
        long leftMs = Math.max(0, (hold.get().untilNanos() - System.nanoTime()) / 1_000_000);
        RegisterWorker gone = hold.get().worker();
        throw new Rejected(ErrorKind.INVALID, gpuOf(g, w) + " was lent by worker " + gone.workerId() + " on " + gone.hostname()
            + ", which left the cluster without a word: it stays held until that worker's jobs are surely gone (its lease "
            + "ends in " + leftMs + " ms); start " + w.workerId() + " again after that");
      }
      RegisterWorker lender = g.indexOnly() ? null : workers.get(lenders.get(g.uuid()));
      if (lender != null) {
        throw new Rejected(ErrorKind.INVALID, gpuOf(g, w) + " is already lent by worker " + lender.workerId() + " on "
            + lender.hostname() + ": one GPU is lent by one worker at a time; start " + w.workerId()
            + " with --gpus listing other GPUs, or stop " + lender.workerId() + " first");
      }
    }
    pool.addWorker(w.workerId(), type.lendsCpus() ? w.cpus() : 0, gpus);
    workers.put(w.workerId(), w.running(List.of()));
    gpus.stream().filter(g -> !g.indexOnly()).forEach(g -> lenders.put(g.uuid(), w.workerId()));
    List<Job> adopted = new ArrayList<>();
    Map<String, String> stop = new LinkedHashMap<>();
    for (Job job : w.jobs()) {
      adopt(w, job).ifPresentOrElse(why -> stop.put(job.jobId(), why), () -> adopted.add(jobs.get(job.jobId())));
    }
    return new Registration<>(drain(), adopted, stop);
  }

  private static String gpuOf(GpuSpec g, RegisterWorker w) {
    return "GPU " + g.index() + " (" + g.uuid() + ") of worker " + w.workerId() + " on " + w.hostname();
  }

  /**
   * The lease that holds a GPU now. A lease holds until its end by itself, whenever {@link #endLease} comes:
   * a worker that registers in between is not refused for a lease that is over.
   */
  private Optional<Hold> holding(GpuSpec g) {
    Hold hold = g.indexOnly() ? null : held.get(g.uuid());
    return hold != null && hold.untilNanos() - System.nanoTime() > 0 ? Optional.of(hold) : Optional.empty();
  }

  /** Records a reported job as it runs; empty, or why it cannot be adopted. */
  private Optional<String> adopt(RegisterWorker w, Job job) {
    if (!job.workerId().equals(w.workerId())) {
      return Optional.of("worker " + w.workerId() + " reports job " + job.jobId() + " as one of worker " + job.workerId());
    }
    if (jobs.containsKey(job.jobId())) {
      return Optional.of("job " + job.jobId() + " is already held on worker " + jobs.get(job.jobId()).workerId());
    }
    int cpus = type.lendsCpus() ? job.cpus() : 0;
    boolean gpuJob = !job.gpus().isEmpty();
    if ((type == ClusterType.CPU && (gpuJob || cpus < 1)) || (type == ClusterType.GPU && !gpuJob)
        || (type == ClusterType.MIXED && !gpuJob && cpus < 1)) {
      return Optional.of("job " + job.jobId() + " holds " + job.cpus() + " CPU(s) and GPUs " + job.gpus()
          + ", which a " + type.label() + " cluster does not grant");
    }
    try {
      pool.adopt(new Allocation(job.jobId(), w.workerId(), cpus, job.gpus(), job.gpuShare(), job.gpuMemoryMb()));
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
    // a cluster that lends no CPUs holds none for the job, whatever the worker reports
    jobs.put(job.jobId(), cpus == job.cpus() ? job : new Job(job.jobId(), job.clientId(), job.workerId(), job.actorClass(), cpus,
        job.gpus(), job.gpuShare(), job.gpuMemoryMb(), job.maxMemoryMb(), job.createdAt()));
    jobCounter = Math.max(jobCounter, jobNumber(job.jobId()));
    return Optional.empty();
  }

  /** Removes a worker that left on purpose or died; its jobs are lost. */
  public Optional<Lost> removeWorker(String workerId) {
    RegisterWorker w = workers.remove(workerId);
    if (w == null) {
      return Optional.empty();
    }
    lenders.values().removeIf(workerId::equals);
    quarantine.forget(workerId);
    List<Job> lost = new ArrayList<>();
    List<PlacementGroups.Slot> broken = new ArrayList<>();
    for (Allocation a : pool.removeWorker(workerId)) {
      groups.slotOf(a.jobId()).ifPresent(broken::add);
      Job job = jobs.remove(a.jobId());
      priorities.remove(a.jobId());
      if (job != null) {
        lost.add(job);
      }
    }
    for (PlacementGroups.Slot s : broken) {
      if (groups.group(s.group.id).isPresent()) {
        endedGroups.add(endGroup(s.group, "placement group " + s.group.id + " lost bundle " + s.index + " with worker "
            + workerId + " on " + w.hostname()));
      }
    }
    return Optional.of(new Lost(w, lost));
  }

  /**
   * Removes every worker hosted by a cluster member that left without a word. Their jobs leave the pool at
   * once (nothing is placed there any more), but their GPUs stay held by UUID until the lease that
   * {@code leaseEndsNanos} gives each worker: while the lost worker's jobs may still run, no worker lends
   * those GPUs again. {@link #endLease} releases them.
   */
  public List<Leased> loseNode(String nodeId, ToLongFunction<RegisterWorker> leaseEndsNanos) {
    List<Lost> lost = new ArrayList<>();
    for (RegisterWorker w : List.copyOf(workers.values())) {
      if (w.nodeId().equals(nodeId)) {
        removeWorker(w.workerId()).ifPresent(lost::add);
      }
    }
    List<Leased> leased = new ArrayList<>();
    for (Lost l : lost) {
      Hold hold = new Hold(l.worker(), leaseEndsNanos.applyAsLong(l.worker()));
      GpuSpecs.of(l.worker()).stream().filter(g -> !g.indexOnly()).forEach(g -> held.put(g.uuid(), hold));
      leased.add(new Leased(l, hold));
    }
    return leased;
  }

  /** The lease of a lost worker ended: its jobs are gone, and what holds the GPUs it lent is forgotten. */
  public void endLease(Hold hold) {
    held.values().removeIf(hold::equals);
  }

  /** The lease that holds one of the GPUs {@code w} would lend, if one does. */
  public Optional<Hold> leaseHolding(RegisterWorker w) {
    return GpuSpecs.of(w).stream().map(this::holding).flatMap(Optional::stream).findFirst();
  }

  /**
   * Validates a request and grants it at once or queues it.
   *
   * @throws Rejected when the request can never be served as asked: wrong for this cluster, or (unless
   *     it waits for workers) more than any worker of the cluster could hold even with everything vacant
   */
  public Submitted submit(Allocate r, H handle) {
    ResourceRequest resources = Requests.admit(type, maxGpusPerActor, r.resources());
    if (r.create().group() != null) {
      return new Submitted(0, Optional.of(intoBundle(r)), resources);
    }
    requireRoomToWait(r.clientId());
    if (!waitsForWorkers(r.waitForWorkers())) {
      pool.neverFits(resources).ifPresent(why -> {
        throw new Rejected(ErrorKind.INVALID, neverMessage(resources.toString(), why));
      });
    }
    // preempting means waiting for the victims to end: a create that does not wait preempts nobody
    boolean preempt = r.create().preempt() && r.timeoutMs() > 0;
    Scheduler.Submitted s = scheduler.submit(resources, r.create().priority(), preempt, new Waiting<>(r, null, null, handle));
    return new Submitted(s.requestId(), s.allocation().map(a -> record(r, a)), resources);
  }

  /**
   * Validates a placement group and holds it at once or queues it, like {@link #submit}.
   *
   * @throws Rejected when a bundle does not suit this cluster, or (unless it waits for workers) no worker,
   *     or set of workers as its strategy needs, could ever hold the group
   */
  public GroupSubmitted submitGroup(HoldGroup r, H handle) {
    GroupRequest asked = r.reserve().group();
    List<ResourceRequest> admitted = new ArrayList<>(asked.size());
    for (int i = 0; i < asked.size(); i++) {
      try {
        admitted.add(Requests.admit(type, maxGpusPerActor, asked.bundles().get(i)));
      } catch (Rejected e) {
        throw new Rejected(e.kind(), "bundle " + i + ": " + e.getMessage());
      }
    }
    GroupRequest group = new GroupRequest(admitted, asked.strategy());
    requireRoomToWait(r.clientId());
    if (!waitsForWorkers(r.reserve().waitForWorkers())) {
      pool.groupNeverFits(group).ifPresent(why -> {
        throw new Rejected(ErrorKind.INVALID, neverMessage("placement group " + group, why));
      });
    }
    Scheduler.GroupSubmitted s = scheduler.submitGroup(group, r.reserve().priority(), new Waiting<>(null, r, group, handle));
    return new GroupSubmitted(s.requestId(), s.allocations().map(held -> hold(r, group, held)), group);
  }

  private void requireRoomToWait(String clientId) {
    if (scheduler.waitingCount() >= maxWaitingPerClient && waitingOf(clientId) >= maxWaitingPerClient) {
      throw new Rejected(ErrorKind.INVALID, "client " + clientId + " already has " + maxWaitingPerClient
          + " creates waiting for resources, the cap: wait for some to be served, or raise jobs.maxWaitingPerClient in "
          + LimitSettings.FILE + " on the master");
    }
  }

  /**
   * Whether a request no worker can hold waits for a worker to join: when its client asked so, and
   * for everybody while the workers of a new cluster (or of a takeover) are still arriving.
   */
  private boolean waitsForWorkers(boolean asked) {
    return asked || System.nanoTime() - startedNanos < WORKERS_ARRIVING_NANOS;
  }

  private static String neverMessage(String what, String why) {
    return "no worker of this cluster could ever hold " + what + ": " + why + ". Ask for less, add a worker that can "
        + "hold it, or create with waitForWorkers(true) to wait for one";
  }

  /** The job of an actor created into a bundle of its client's group: the bundle's allocation, at once. */
  private Job intoBundle(Allocate r) {
    String id = r.create().group();
    int index = r.create().bundle();
    PlacementGroups.Group g = groups.group(id).orElseThrow(() -> groups.endOf(id)
        .map(why -> new Rejected(ErrorKind.LOST, "placement group " + id + " is gone: " + why))
        .orElseGet(() -> new Rejected(ErrorKind.INVALID, "no placement group " + id + " is held in this cluster")));
    if (!g.clientId.equals(r.clientId())) {
      throw new Rejected(ErrorKind.INVALID, "placement group " + id + " belongs to another client");
    }
    if (index >= g.slots.size()) {
      throw new Rejected(ErrorKind.INVALID, "placement group " + id + " has bundles 0 to " + (g.slots.size() - 1)
          + ", not " + index);
    }
    PlacementGroups.Slot slot = g.slots.get(index);
    if (!slot.idle()) {
      throw new Rejected(ErrorKind.INVALID, "bundle " + index + " of placement group " + id + " is held by job " + slot.jobId
          + ": one actor at a time holds a bundle; end it first, or create into another bundle");
    }
    groups.occupy(slot);
    return record(r, slot.held);
  }

  /** The one place a group is made: from the request and what the pool granted its bundles. */
  private GroupGranted hold(HoldGroup r, GroupRequest group, List<Allocation> held) {
    String id = "pg-" + (++jobCounter);
    groups.add(id, r.clientId(), group, held);
    return new GroupGranted(id, held.stream().map(a -> new GatewayReply.BundleHeld(a.workerId(),
        workers.get(a.workerId()).hostname(), a.gpus())).toList());
  }

  /**
   * Removes a client's placement group: its idle bundles return to the pool now; its actors' jobs are
   * returned, for the caller to stop (what they hold returns as each ends).
   *
   * @return empty when the group is gone already
   * @throws Rejected when the group is another client's
   */
  public Optional<GroupEnded> removeGroup(String groupId, String clientId) {
    Optional<PlacementGroups.Group> g = groups.group(groupId);
    if (g.isPresent() && !g.get().clientId.equals(clientId)) {
      throw new Rejected(ErrorKind.INVALID, "placement group " + groupId + " belongs to another client");
    }
    return g.map(group -> endGroup(group, "its placement group " + groupId + " was removed"));
  }

  /** Removes every placement group of a client that left. */
  public List<GroupEnded> removeGroupsOf(String clientId) {
    return groups.groupsOf(clientId).stream()
        .map(g -> endGroup(g, "its placement group " + g.id + " was removed with its client " + clientId)).toList();
  }

  /** The groups that ended with a worker that held one of their bundles since last asked: their jobs to stop. */
  public List<GroupEnded> takeEndedGroups() {
    List<GroupEnded> out = List.copyOf(endedGroups);
    endedGroups.clear();
    return out;
  }

  private GroupEnded endGroup(PlacementGroups.Group g, String cause) {
    groups.remove(g.id, cause);
    List<Job> running = new ArrayList<>();
    for (PlacementGroups.Slot s : g.slots) {
      if (!s.idle()) {
        Optional.ofNullable(jobs.get(s.jobId)).ifPresent(running::add);
      } else if (workers.containsKey(s.held.workerId())) {
        pool.release(s.held.jobId());
      }
    }
    List<String> on = g.slots.stream().map(s -> s.held.workerId()).filter(workers::containsKey).distinct().toList();
    return new GroupEnded(g.id, g.clientId, cause, running, on);
  }

  /** The placement groups held now, for status and tests. */
  public List<GroupRecord> groups() {
    return groups.groups().stream().map(g -> new GroupRecord(g.id, g.clientId, g.request.strategy(),
        g.slots.stream().map(s -> new GroupRecord.BundleState(s.held.workerId(), s.held.gpus(), s.jobId)).toList())).toList();
  }

  /**
   * Fails the waiting requests that no worker left in the pool could ever hold (the last worker able
   * to serve them left), except those that wait for workers.
   *
   * @return their handles, each with the message to fail it with
   */
  public Map<H, String> dropNeverFitting() {
    Map<H, String> dropped = new LinkedHashMap<>();
    for (Scheduler.Waiting<Waiting<H>> w : scheduler.dropNeverFitting(t -> waitsForWorkers(t.waitForWorkers()))) {
      String why = (w.group() != null ? pool.groupNeverFits(w.group()) : pool.neverFits(w.request()))
          .orElse("no worker can hold it");
      String what = w.group() != null ? "placement group " + w.group() : w.request().toString();
      dropped.put(w.ticket().handle(), neverMessage(what, why) + " (the last worker that could left)");
    }
    return dropped;
  }

  /** Why a waiting request waits, in one sentence; empty if it no longer waits. */
  public Optional<String> reason(long requestId) {
    return scheduler.reason(requestId).map(Scheduler.Reason::summary);
  }

  /** The waiting requests in order, each with its reason. */
  public List<WaitingCreate> waiting() {
    long now = System.nanoTime();
    List<WaitingCreate> out = new ArrayList<>();
    for (Scheduler.Waiting<Waiting<H>> w : scheduler.waiting()) {
      Waiting<H> t = w.ticket();
      String program = t.request() != null ? t.request().program() : t.group().program();
      String actorClass = t.request() != null ? t.request().actorClass() : "placement group";
      scheduler.reason(w.requestId()).ifPresent(why -> out.add(new WaitingCreate(w.requestId(), t.clientId(),
          program, actorClass, Math.max(0, (now - w.sinceNanos()) / 1_000_000), w.words(), why.ahead(),
          why.kind().name().toLowerCase(java.util.Locale.ROOT), why.summary(),
          why.details().subList(0, Math.min(why.details().size(), WaitingCreate.MAX_DETAILS)))));
    }
    return out;
  }

  /** Most waiting requests whose reason {@link #waitingByReason} works out; later ones count as queued. */
  static final int REASONS_COUNTED = 256;

  /**
   * How many requests wait, by the kind of constraint that stops them: for metrics, asked every few
   * seconds, so only the first {@value #REASONS_COUNTED} are explained (the rest wait behind them), and
   * the scheduler keeps each class on its request while the pool stays the same.
   */
  public Map<String, Integer> waitingByReason() {
    Map<String, Integer> counts = new java.util.TreeMap<>();
    List<Scheduler.ReasonClass> classes = scheduler.reasonClasses(REASONS_COUNTED);
    classes.forEach(kind -> counts.merge(kind.name().toLowerCase(java.util.Locale.ROOT), 1, Integer::sum));
    int behind = scheduler.waitingCount() - classes.size();
    if (behind > 0) {
      counts.merge(Scheduler.ReasonClass.QUEUED.name().toLowerCase(java.util.Locale.ROOT), behind, Integer::sum);
    }
    return counts;
  }

  /**
   * Takes a worker, or one of its GPUs, out of service or back (docs/contract.md §11): nothing new is placed
   * there; what runs there goes on.
   *
   * @param gpu the GPU's index, or null for the whole worker
   * @throws Rejected naming the unknown worker or GPU
   */
  public List<Granted<H>> drain(String workerId, Integer gpu, boolean drained) {
    try {
      if (gpu == null) {
        pool.setWorkerDrained(workerId, drained);
      } else {
        pool.setGpuDrained(workerId, gpu, drained);
        if (!drained && quarantine.lift(workerId, gpu).isPresent()) {
          pool.setGpuQuarantined(workerId, gpu, false);
        }
      }
    } catch (IllegalArgumentException e) {
      throw new Rejected(ErrorKind.NOT_FOUND, e.getMessage());
    }
    return drained ? List.of() : drain();
  }

  /** Why a GPU is quarantined, or empty when it is not. */
  public Optional<GpuFault> quarantined(String workerId, int gpu) {
    return quarantine.fault(workerId, gpu);
  }

  /** How long a quarantined GPU must have been healthy before it is lent again. */
  public long healthyAfterMs() {
    return quarantine.healthyAfterMs();
  }

  /**
   * A worker's report of its GPUs' health (docs/contract.md §11): a faulty GPU is quarantined at once (offered to
   * no one); a quarantined one that reads healthy starts its clock ({@link #restoreHealthy}), and a
   * fault stops it again. GPUs the worker does not lend are ignored.
   *
   * @return the GPUs quarantined by this report, each with the jobs holding it
   * @throws Rejected when the worker is not registered from that node
   */
  public List<Quarantined> gpuHealth(GpuHealth report, long nowNanos) {
    RegisterWorker w = workers.get(report.workerId());
    if (w == null || !w.nodeId().equals(report.nodeId())) {
      throw new Rejected(ErrorKind.NOT_FOUND, "no worker " + report.workerId() + " is registered from node "
          + report.nodeId());
    }
    List<Quarantined> out = new ArrayList<>();
    for (GpuCondition c : report.gpus()) {
      if (!w.gpus().contains(c.index())) {
        continue;
      }
      if (c.healthy()) {
        quarantine.healthy(w.workerId(), c.index(), nowNanos);
        continue;
      }
      GpuFault fault = new GpuFault(w.workerId(), c.index(), c.uuid(), c.fault());
      if (quarantine.faulty(fault)) {
        List<Job> on = new ArrayList<>();
        for (Allocation a : pool.setGpuQuarantined(w.workerId(), c.index(), true)) {
          on.add(jobs.get(a.jobId()));
        }
        out.add(new Quarantined(fault, on));
      }
    }
    return out;
  }

  /**
   * Lifts the quarantine of every GPU that has been healthy for {@link #healthyAfterMs()} at
   * {@code nowNanos}; the caller then serves the waiting requests ({@link #drain()}).
   *
   * @return the faults of the GPUs back in service
   */
  public List<GpuFault> restoreHealthy(long nowNanos) {
    List<GpuFault> back = quarantine.due(nowNanos);
    for (GpuFault f : back) {
      quarantine.lift(f.workerId(), f.index());
      pool.setGpuQuarantined(f.workerId(), f.index(), false);
    }
    return back;
  }

  /** How many requests of {@code clientId} wait now. */
  public int waitingOf(String clientId) {
    return (int) scheduler.waiting().stream().filter(w -> w.ticket().clientId().equals(clientId)).count();
  }

  /** Gives up a waiting request whose time ran out; empty if it was already served. */
  public Optional<H> timeout(long requestId) {
    return scheduler.cancel(requestId).map(Waiting::handle);
  }

  /** Gives up every waiting request of a client that left; returns their handles. */
  public List<H> cancelClient(String clientId) {
    return scheduler.cancelIf(w -> w.clientId().equals(clientId)).stream().map(Waiting::handle).toList();
  }

  /** Gives up every waiting request that came through the gateway of a master that left; returns their handles. */
  public List<H> cancelGateway(String gatewayMember) {
    return scheduler.cancelIf(w -> w.gateway().equals(gatewayMember)).stream().map(Waiting::handle).toList();
  }

  /** Which of these jobs {@code clientId} holds (a client resuming its session). */
  public List<Job> claim(String clientId, List<String> jobIds) {
    List<Job> held = new ArrayList<>();
    for (String id : jobIds) {
      Job job = jobs.get(id);
      if (job != null && job.clientId().equals(clientId)) {
        held.add(job);
      }
    }
    return held;
  }

  /**
   * A job ended (or never started): its resources return and waiting requests are served; those of an
   * actor in a placement group's bundle return to the bundle, under a fresh id.
   */
  public Optional<Job> end(String jobId) {
    Job job = jobs.remove(jobId);
    if (job == null) {
      return Optional.empty();
    }
    priorities.remove(jobId);
    Optional<PlacementGroups.Slot> bundle = groups.slotOf(jobId);
    if (bundle.isPresent()) {
      groups.vacate(bundle.get(), pool.rename(jobId, nextJobId()));
    } else {
      pool.release(jobId);
    }
    return Optional.of(job);
  }

  /** Serves waiting requests in arrival order with what is vacant now. */
  public List<Granted<H>> drain() {
    List<Granted<H>> granted = new ArrayList<>();
    for (Scheduler.Grant<Waiting<H>> g : scheduler.drain()) {
      Waiting<H> t = g.ticket();
      granted.add(t.group() != null ? new Granted<>(t.handle(), null, hold(t.group(), t.admitted(), g.allocations()))
          : new Granted<>(t.handle(), record(t.request(), g.allocation())));
    }
    return granted;
  }

  /**
   * The jobs to stop for waiting creates that may preempt (docs/resources.md): for each, the fewest jobs of
   * lower priority on one worker. The caller stops them and ends each when its worker reports it gone.
   */
  public List<Preempting> takePreemptions() {
    List<Preempting> out = new ArrayList<>();
    for (Scheduler.Preemption<Waiting<H>> p : scheduler.takePreemptions(preemptible)) {
      Allocate r = p.ticket().request();
      String cause = "preempted for a create of priority " + r.create().priority() + " (" + r.resources() + ") by client "
          + r.clientId() + " (" + r.program() + ")";
      out.add(new Preempting(p.requestId(), p.victims().stream().map(jobs::get).toList(), cause));
    }
    return out;
  }

  /** The one place a job is made: from the request and what the pool granted it. */
  private Job record(Allocate r, Allocation a) {
    Job job = new Job(a.jobId(), r.clientId(), a.workerId(), r.actorClass(), a.cpus(), a.gpus(), a.gpuShare(),
        a.gpuMemoryMb(), r.maxMemoryMb(), System.currentTimeMillis());
    jobs.put(job.jobId(), job);
    if (r.create().group() == null) {
      priorities.put(job.jobId(), r.create().priority());
    }
    return job;
  }

  public Optional<Job> job(String jobId) {
    return Optional.ofNullable(jobs.get(jobId));
  }

  public Optional<RegisterWorker> worker(String workerId) {
    return Optional.ofNullable(workers.get(workerId));
  }

  public List<Job> jobs() {
    return List.copyOf(jobs.values());
  }

  public int workerCount() {
    return workers.size();
  }

  public int waitingCount() {
    return scheduler.waitingCount();
  }

  /** The most requests one client has waiting now, to compare with the per-client cap (0 when none waits). */
  public int mostWaitingOfOneClient() {
    Map<String, Integer> perClient = new HashMap<>();
    scheduler.waiting().forEach(w -> perClient.merge(w.ticket().clientId(), 1, Integer::sum));
    return perClient.values().stream().mapToInt(Integer::intValue).max().orElse(0);
  }

  /** Oldest wait among queued requests, in milliseconds (0 when none waits). */
  public long longestWaitMillis() {
    long now = System.nanoTime();
    return scheduler.waiting().stream().mapToLong(w -> (now - w.sinceNanos()) / 1_000_000).max().orElse(0);
  }

  public void checkInvariants() {
    pool.checkInvariants();
    int idle = groups.idleBundles();
    if (jobs.size() + idle != pool.allocationCount()) {
      throw new IllegalStateException("pool invariant broken: " + jobs.size() + " jobs and " + idle + " idle bundles but "
          + pool.allocationCount() + " allocations");
    }
  }

  /** The record published for a worker: its identity and PARL's vacant/used GPU lists. */
  public Optional<WorkerState> workerState(String workerId) {
    RegisterWorker w = workers.get(workerId);
    if (w == null) {
      return Optional.empty();
    }
    WorkerView v = pool.worker(workerId).orElseThrow();
    int cpusTotal = type.lendsCpus() ? w.cpus() : 0;
    List<WorkerState.GpuShare> shares = v.gpuLoads().stream().map(g -> new WorkerState.GpuShare(g.index(), g.shareUsed(),
        g.memoryBudgetMb(), g.memoryMb(), g.drained(), g.quarantined(),
        quarantine.fault(workerId, g.index()).map(GpuFault::fault).orElse(null))).toList();
    return Optional.of(new WorkerState(w.workerId(), w.nodeId(), w.hostname(), w.host(),
        new WorkerState.Cpus(cpusTotal, v.cpusUsed(), v.cpusVacant()), w.hostCpus(), v.vacantGpus(), v.usedGpus(),
        v.outOfServiceGpus(), shares, v.drained(), w.gpuDevices(), List.copyOf(v.jobs())));
  }

  /** Everything at once, for status queries and tests. */
  public Snapshot snapshot(String invariant) {
    List<WorkerState> ws = new ArrayList<>();
    for (String id : workers.keySet()) {
      ws.add(workerState(id).orElseThrow());
    }
    return new Snapshot(type, maxGpusPerActor, ws, List.copyOf(jobs.values()), scheduler.waitingCount(), longestWaitMillis(),
        invariant, groups());
  }
}
