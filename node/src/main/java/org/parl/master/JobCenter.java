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
    this(type, maxGpusPerActor, LimitSettings.DEFAULTS.maxWaitingPerClient());
  }

  /** @param maxWaitingPerClient how many requests of one client may wait at once (SPEC §8) */
  public JobCenter(ClusterType type, int maxGpusPerActor, int maxWaitingPerClient) {
    this.maxWaitingPerClient = maxWaitingPerClient;
    this.type = type;
    this.maxGpusPerActor = maxGpusPerActor;
    this.scheduler = new Scheduler<>(pool, () -> "job-" + (++jobCounter));
  }

  public ClusterType type() {
    return type;
  }

  public int maxGpusPerActor() {
    return maxGpusPerActor;
  }

  /** Adds a worker, then serves what was waiting for it. */
  public List<Granted<H>> register(RegisterWorker w) {
    if (workers.containsKey(w.workerId())) {
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
    workers.put(w.workerId(), w);
    return drain();
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
