package org.parl.master;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.parl.cluster.ClusterType;
import org.parl.control.ControlReply.Snapshot;
import org.parl.control.JobCenterRequest.Allocate;
import org.parl.control.JobCenterRequest.RegisterWorker;
import org.parl.control.JobState;
import org.parl.limits.LimitSettings;
import org.parl.scheduler.Allocation;
import org.parl.scheduler.ResourcePool;
import org.parl.scheduler.ResourceRequest;
import org.parl.scheduler.Scheduler;
import org.parl.scheduler.WorkerView;
import org.parl.wire.ErrorKind;
import org.parl.wire.gateway.WorkerState;

/**
 * The JobCenter's decisions, without Vert.x: which workers are in the pool, which requests are
 * accepted, which job holds what. {@link JobCenterVerticle} owns one instance and calls it from
 * its event loop only, then publishes the results.
 *
 * @param <H> what the caller attaches to a waiting request (its reply promise)
 */
public final class JobCenter<H> {

  /** A request granted after waiting, with the caller's handle. */
  public record Granted<H>(H handle, JobRecord job) {}

  /** A worker that left the pool, with the jobs it took along. */
  public record Lost(RegisterWorker worker, List<JobRecord> jobs) {}

  /** The outcome of a submission: a job now, or a queued request id to time out later. */
  public record Submitted(long requestId, Optional<JobRecord> job) {}

  /**
   * The outcome of a registration: requests served with the new worker's resources, the jobs it
   * reported and the pool adopted, and those it must stop (with why).
   */
  public record Registration<H>(List<Granted<H>> granted, List<JobRecord> adopted, Map<String, String> stop) {}

  /** The gateway member named by adopted jobs: no gateway is waiting for them. */
  static final String ADOPTED = "adopted";

  private record Waiting<H>(Allocate request, H handle) {}

  private final ClusterType type;
  private final int maxGpusPerActor;
  private final int maxWaitingPerClient;
  private final ResourcePool pool = new ResourcePool();
  private final Scheduler<Waiting<H>> scheduler;
  private final Map<String, RegisterWorker> workers = new LinkedHashMap<>();
  private final Map<String, JobRecord> jobs = new LinkedHashMap<>();
  private long jobCounter;

  public JobCenter(ClusterType type, int maxGpusPerActor) {
    this(type, maxGpusPerActor, LimitSettings.DEFAULTS.maxWaitingPerClient(), 1);
  }

  /**
   * @param maxWaitingPerClient how many requests of one client may wait at once (SPEC §8)
   * @param firstJobNumber the number of the first job id granted here ({@code job-N}): after a
   *     takeover, beyond every id the previous master may have handed out
   */
  public JobCenter(ClusterType type, int maxGpusPerActor, int maxWaitingPerClient, long firstJobNumber) {
    this.maxWaitingPerClient = maxWaitingPerClient;
    this.type = type;
    this.maxGpusPerActor = maxGpusPerActor;
    this.jobCounter = firstJobNumber - 1;
    this.scheduler = new Scheduler<>(pool, () -> "job-" + (++jobCounter));
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
   * Adds a worker with the jobs it reports (adopting each one whose resources are free, SPEC §10),
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
    pool.addWorker(w.workerId(), type == ClusterType.CPU ? w.cpus() : 0, w.gpus());
    workers.put(w.workerId(), w.running(List.of()));
    List<JobRecord> adopted = new ArrayList<>();
    Map<String, String> stop = new LinkedHashMap<>();
    for (JobState job : w.jobs()) {
      adopt(w, job).ifPresentOrElse(why -> stop.put(job.jobId(), why), () -> adopted.add(jobs.get(job.jobId())));
    }
    return new Registration<>(drain(), adopted, stop);
  }

  /** Records a reported job as it runs; empty, or why it cannot be adopted. */
  private Optional<String> adopt(RegisterWorker w, JobState job) {
    if (!job.workerId().equals(w.workerId())) {
      return Optional.of("worker " + w.workerId() + " reports job " + job.jobId() + " as one of worker " + job.workerId());
    }
    if (jobs.containsKey(job.jobId())) {
      return Optional.of("job " + job.jobId() + " is already held on worker " + jobs.get(job.jobId()).workerId());
    }
    int cpus = type == ClusterType.CPU ? job.cpus() : 0;
    if ((type == ClusterType.CPU) != job.gpus().isEmpty() || (type == ClusterType.CPU && cpus < 1)) {
      return Optional.of("job " + job.jobId() + " holds " + job.cpus() + " CPU(s) and GPUs " + job.gpus()
          + ", which a " + type.label() + " cluster does not grant");
    }
    try {
      pool.adopt(new Allocation(job.jobId(), w.workerId(), cpus, job.gpus()));
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
    Allocate request = new Allocate(job.clientId(), cpus, job.gpus().size(), job.maxMemoryMb(), 0, job.actorClass(), ADOPTED);
    jobs.put(job.jobId(), new JobRecord(request, new Allocation(job.jobId(), w.workerId(), cpus, job.gpus()), job.createdAt()));
    jobCounter = Math.max(jobCounter, jobNumber(job.jobId()));
    return Optional.empty();
  }

  /** Removes a worker that left on purpose or died; its jobs are lost. */
  public Optional<Lost> removeWorker(String workerId) {
    RegisterWorker w = workers.remove(workerId);
    if (w == null) {
      return Optional.empty();
    }
    List<JobRecord> lost = new ArrayList<>();
    for (Allocation a : pool.removeWorker(workerId)) {
      lost.add(jobs.remove(a.jobId()));
    }
    return Optional.of(new Lost(w, lost));
  }

  /** Removes every worker hosted by a cluster member that is gone. */
  public List<Lost> removeNode(String nodeId) {
    List<Lost> lost = new ArrayList<>();
    for (RegisterWorker w : List.copyOf(workers.values())) {
      if (w.nodeId().equals(nodeId)) {
        removeWorker(w.workerId()).ifPresent(lost::add);
      }
    }
    return lost;
  }

  /**
   * Validates a request and grants it at once or queues it.
   *
   * @throws Rejected when the request can never be served as asked
   */
  public Submitted submit(Allocate r, H handle) {
    ResourceRequest resources = validate(r);
    if (scheduler.waitingCount() >= maxWaitingPerClient && waitingOf(r.clientId()) >= maxWaitingPerClient) {
      throw new Rejected(ErrorKind.INVALID, "client " + r.clientId() + " already has " + maxWaitingPerClient
          + " creates waiting for resources, the cap: wait for some to be served, or raise jobs.maxWaitingPerClient in "
          + LimitSettings.FILE + " on the master");
    }
    Scheduler.Submitted s = scheduler.submit(resources, new Waiting<>(r, handle));
    return new Submitted(s.requestId(), s.allocation().map(a -> record(r, a)));
  }

  private ResourceRequest validate(Allocate r) {
    if (type == ClusterType.CPU) {
      if (r.gpus() > 0) {
        throw new Rejected(ErrorKind.MISMATCH, "this is a CPU cluster and the actor asks for " + r.gpus()
            + " GPU(s): ask for CPUs instead (@RemoteClass(cpus = N)), or connect to a cluster started with --gpu-cluster");
      }
      if (r.gpus() < 0 || r.cpus() < 1) {
        throw new Rejected(ErrorKind.INVALID, "an actor must ask for at least 1 CPU (it asked for "
            + r.cpus() + " CPU(s) and " + r.gpus() + " GPU(s))");
      }
      return ResourceRequest.ofCpus(r.cpus());
    }
    if (r.gpus() == 0) {
      throw new Rejected(ErrorKind.MISMATCH, "this is a GPU cluster and the actor asks for no GPUs: ask for some with "
          + "@RemoteClass(gpus = N) or .gpus(N), or connect to a CPU cluster");
    }
    if (r.gpus() < 0) {
      throw new Rejected(ErrorKind.INVALID, "an actor must ask for at least 1 GPU, not " + r.gpus());
    }
    if (r.gpus() > maxGpusPerActor) {
      throw new Rejected(ErrorKind.INVALID, "an actor may ask for at most " + maxGpusPerActor
          + " GPUs and this one asks for " + r.gpus() + ": split the work across actors");
    }
    return ResourceRequest.ofGpus(r.gpus());
  }

  /** How many requests of {@code clientId} wait now. */
  public int waitingOf(String clientId) {
    return (int) scheduler.waiting().stream().filter(w -> w.ticket().request().clientId().equals(clientId)).count();
  }

  /** Gives up a waiting request whose time ran out; empty if it was already served. */
  public Optional<H> timeout(long requestId) {
    return scheduler.cancel(requestId).map(Waiting::handle);
  }

  /** Gives up every waiting request of a client that left; returns their handles. */
  public List<H> cancelClient(String clientId) {
    return scheduler.cancelIf(w -> w.request().clientId().equals(clientId)).stream().map(Waiting::handle).toList();
  }

  /** Gives up every waiting request that came through the gateway of a master that left; returns their handles. */
  public List<H> cancelGateway(String gatewayMember) {
    return scheduler.cancelIf(w -> w.request().gateway().equals(gatewayMember)).stream().map(Waiting::handle).toList();
  }

  /** Which of these jobs {@code clientId} holds (a client resuming its session). */
  public List<JobRecord> claim(String clientId, List<String> jobIds) {
    List<JobRecord> held = new ArrayList<>();
    for (String id : jobIds) {
      JobRecord job = jobs.get(id);
      if (job != null && job.clientId().equals(clientId)) {
        held.add(job);
      }
    }
    return held;
  }

  /** A job ended (or never started): its resources return and waiting requests are served. */
  public Optional<JobRecord> end(String jobId) {
    JobRecord job = jobs.remove(jobId);
    if (job == null) {
      return Optional.empty();
    }
    pool.release(jobId);
    return Optional.of(job);
  }

  /** Serves waiting requests in arrival order with what is vacant now. */
  public List<Granted<H>> drain() {
    List<Granted<H>> granted = new ArrayList<>();
    for (Scheduler.Grant<Waiting<H>> g : scheduler.drain()) {
      granted.add(new Granted<>(g.ticket().handle(), record(g.ticket().request(), g.allocation())));
    }
    return granted;
  }

  private JobRecord record(Allocate r, Allocation a) {
    JobRecord job = new JobRecord(r, a, System.currentTimeMillis());
    jobs.put(job.jobId(), job);
    return job;
  }

  public Optional<JobRecord> job(String jobId) {
    return Optional.ofNullable(jobs.get(jobId));
  }

  public Optional<RegisterWorker> worker(String workerId) {
    return Optional.ofNullable(workers.get(workerId));
  }

  public List<JobRecord> jobs() {
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
    scheduler.waiting().forEach(w -> perClient.merge(w.ticket().request().clientId(), 1, Integer::sum));
    return perClient.values().stream().mapToInt(Integer::intValue).max().orElse(0);
  }

  /** Oldest wait among queued requests, in milliseconds (0 when none waits). */
  public long longestWaitMillis() {
    long now = System.nanoTime();
    return scheduler.waiting().stream().mapToLong(w -> (now - w.sinceNanos()) / 1_000_000).max().orElse(0);
  }

  public void checkInvariants() {
    pool.checkInvariants();
    if (jobs.size() != pool.allocationCount()) {
      throw new IllegalStateException("pool invariant broken: " + jobs.size() + " jobs but "
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
    int cpusTotal = type == ClusterType.CPU ? w.cpus() : 0;
    return Optional.of(new WorkerState(w.workerId(), w.nodeId(), w.hostname(), w.host(),
        new WorkerState.Cpus(cpusTotal, v.cpusUsed(), v.cpusVacant()), w.cpus(), v.vacantGpus(), v.usedGpus(),
        w.gpuDevices(), List.copyOf(v.jobs())));
  }

  /** Everything at once, for status queries and tests. */
  public Snapshot snapshot(String invariant) {
    List<WorkerState> ws = new ArrayList<>();
    for (String id : workers.keySet()) {
      ws.add(workerState(id).orElseThrow());
    }
    List<JobState> js = jobs.values().stream().map(JobRecord::state).toList();
    return new Snapshot(type, maxGpusPerActor, ws, js, scheduler.waitingCount(), longestWaitMillis(), invariant);
  }
}
