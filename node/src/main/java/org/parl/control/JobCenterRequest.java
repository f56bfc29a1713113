package org.parl.control;

import java.util.List;
import org.parl.control.ControlReply.Cancelled;
import org.parl.control.ControlReply.Claimed;
import org.parl.control.ControlReply.Done;
import org.parl.control.ControlReply.Granted;
import org.parl.control.ControlReply.GroupGranted;
import org.parl.control.ControlReply.QueueFigures;
import org.parl.control.ControlReply.Registered;
import org.parl.control.ControlReply.Snapshot;
import org.parl.control.ControlReply.WaitingList;
import org.parl.internal.resources.ResourceRequest;
import org.parl.internal.wire.Checks;
import org.parl.internal.wire.Required;
import org.parl.internal.wire.gateway.GatewayRequest;
import org.parl.internal.wire.gateway.Job;
import org.parl.internal.wire.gateway.WorkerState;
import org.parl.internal.wire.gateway.WorkerState.GpuCard;

/** What the JobCenter ({@code parl.jobcenter}) is asked: every change to the pool goes through here. */
public sealed interface JobCenterRequest extends ControlMessage {

  /** Most jobs one worker may report. */
  int MAX_JOBS_PER_WORKER = 1 << 16;
  /** The longest fence a worker may state: the JobCenter holds a lost worker's GPUs no longer than this. */
  long MAX_FENCE_MS = 600_000;

  /**
   * A worker joins the pool with what it lends, and the jobs it already runs: none for a new worker;
   * after the active master changed (docs/contract.md §10), the jobs it runs, which the new JobCenter adopts
   * (the worker is the truth about its processes) or tells it to stop ({@link Registered#stop}).
   *
   * @param nodeId the worker's cluster node, whose departure takes the worker with it
   * @param cpus the CPUs lent on a CPU cluster (the host's core count on a GPU cluster)
   * @param hostCpus the cores the host gives this worker's JVM (its {@code availableProcessors}), for display
   * @param fenceMs the longest time from a cut of the worker's network to its jobs being gone (it stops them
   *     when it loses sight of every master): the JobCenter releases what they held only after that;
   *     0 for a worker that cannot be cut off from its master (it runs in the master's process) or runs no
   *     job process
   * @param gpuDevices the GPUs as {@code nvidia-smi} described them, for display
   * @param jobs the jobs it runs, each with the resources it was granted
   */
  record RegisterWorker(String workerId, String nodeId, String hostname, String host, @Required int cpus,
      @Required int hostCpus, @Required long fenceMs, List<Integer> gpus, List<GpuCard> gpuDevices, List<Job> jobs)
      implements JobCenterRequest, Request<Registered> {
    public RegisterWorker {
      Checks.name("workerId", workerId);
      Checks.name("nodeId", nodeId);
      Checks.name("hostname", hostname);
      Checks.name("host", host);
      Checks.range("cpus", cpus, 0, 1 << 16);
      Checks.range("hostCpus", hostCpus, 1, 1 << 16);
      Checks.range("fenceMs", fenceMs, 0, MAX_FENCE_MS);
      gpus = Checks.ids("gpus", gpus, WorkerState.MAX_GPUS);
      gpuDevices = Checks.list("gpuDevices", gpuDevices, WorkerState.MAX_GPUS);
      jobs = Checks.list("jobs", jobs, MAX_JOBS_PER_WORKER);
    }

    /**
     * A worker that runs no job yet and starts no job process, on a host of {@code max(cpus, 1)} cores (the
     * simulated and test workers).
     */
    public RegisterWorker(String workerId, String nodeId, String hostname, String host, int cpus, List<Integer> gpus,
        List<GpuCard> gpuDevices) {
      this(workerId, nodeId, hostname, host, cpus, Math.max(cpus, 1), 0, gpus, gpuDevices, List.of());
    }

    /** The same worker, reporting other jobs. */
    public RegisterWorker running(List<Job> running) {
      return new RegisterWorker(workerId, nodeId, hostname, host, cpus, hostCpus, fenceMs, gpus, gpuDevices, running);
    }
  }

  /**
   * A worker that stops says goodbye before it leaves the cluster: the JobCenter drops it at once (what it
   * lent is no longer offered, and the departure is logged as a stop, not as a crash); the jobs it still
   * runs are lost. Only the worker itself may say it: the JobCenter takes it only from the node the
   * worker registered from.
   *
   * @param nodeId the worker's cluster node, as it registered
   */
  record UnregisterWorker(String workerId, String nodeId) implements JobCenterRequest, Request<Done> {
    public UnregisterWorker {
      Checks.name("workerId", workerId);
      Checks.name("nodeId", nodeId);
    }
  }

  /**
   * A client's create, as the gateway it asked received it, for the JobCenter: answered when a worker has the
   * resources or failed after {@code create.timeoutMs()}.
   *
   * @param gateway the member UUID of the master whose gateway asks: when that master leaves, its
   *     waiting requests are given up (its clients resubmit them elsewhere, docs/contract.md §10)
   * @param program the client's program, as its hello named it: shown beside a waiting request
   * @param create the client's request as it sent it: what the actor asks for, for how long it waits, and
   *     whether a request no worker could ever hold waits for workers that may join
   */
  record Allocate(String clientId, String gateway, String program, GatewayRequest.Create create)
      implements JobCenterRequest, Request<Granted> {
    public Allocate {
      Checks.name("clientId", clientId);
      gateway = Checks.name("gateway", gateway, "?");
      program = Checks.name("program", program, "?");
      Checks.present("create", create);
    }

    /** A request for CPUs or whole GPUs, as PARL's clusters ask (a create numbered 0, that waits for no worker). */
    public Allocate(String clientId, int cpus, int gpus, int maxMemoryMb, long timeoutMs, String actorClass,
        String gateway) {
      this(clientId, gateway, "?", new GatewayRequest.Create(0, new ResourceRequest(cpus, gpus, 0, 0, null, maxMemoryMb),
          timeoutMs, actorClass, false));
    }

    /** What the actor asks for, as its client stated it. */
    public ResourceRequest resources() {
      return create.resources();
    }

    /** How long the request may wait for resources. */
    public long timeoutMs() {
      return create.timeoutMs();
    }

    /** The actor's class, for display ({@code ?} when unknown). */
    public String actorClass() {
      return create.actorClass();
    }

    /** Whether a request no worker could ever hold waits for workers that may join. */
    public boolean waitForWorkers() {
      return create.waitForWorkers();
    }

    public int maxMemoryMb() {
      return create.resources().maxMemoryMb();
    }

    /** The same request with another time to wait: what is left of it when it is asked of a new master. */
    public Allocate withTimeoutMs(long timeoutMs) {
      return new Allocate(clientId, gateway, program, create.withTimeoutMs(timeoutMs));
    }
  }

  /**
   * A job ended (or never started): its resources return.
   *
   * @param workerId the job's worker (the one reporting it, or the master releasing a job whose
   *     launch failed): the JobCenter ends a job only for the worker that holds it
   * @param lost true when the job did not end on request
   */
  record EndJob(String jobId, String workerId, String cause, boolean lost) implements JobCenterRequest, Request<Done> {
    public EndJob {
      Checks.name("jobId", jobId);
      Checks.name("workerId", workerId);
      cause = Checks.text("cause", cause == null ? "ended" : cause, Checks.MAX_TEXT);
    }
  }

  /**
   * A client's placement group, as the gateway it asked received it: answered with {@link GroupGranted} when
   * every bundle is held, or failed after {@code reserve.timeoutMs()}.
   *
   * @param gateway as for {@link Allocate}
   * @param program as for {@link Allocate}
   */
  record HoldGroup(String clientId, String gateway, String program, GatewayRequest.ReserveGroup reserve)
      implements JobCenterRequest, Request<GroupGranted> {
    public HoldGroup {
      Checks.name("clientId", clientId);
      gateway = Checks.name("gateway", gateway, "?");
      program = Checks.name("program", program, "?");
      Checks.present("reserve", reserve);
    }
  }

  /** A client removes its placement group: the actors in it are stopped and every unit returns. */
  record DropGroup(String clientId, String groupId) implements JobCenterRequest, Request<Done> {
    public DropGroup {
      Checks.name("clientId", clientId);
      Checks.name("groupId", groupId);
    }
  }

  /** A client left: its waiting requests are given up, and its placement groups removed. */
  record CancelClient(String clientId) implements JobCenterRequest, Request<Cancelled> {
    public CancelClient {
      Checks.name("clientId", clientId);
    }
  }

  /**
   * A client resumes its session at another master's gateway (docs/contract.md §10): which of the jobs it names
   * are still its own. Answered by {@link Claimed}.
   */
  record ClaimJobs(String clientId, List<String> jobIds) implements JobCenterRequest, Request<Claimed> {
    public ClaimJobs {
      Checks.name("clientId", clientId);
      jobIds = Checks.list("jobIds", jobIds, GatewayRequest.MAX_RESUMED_JOBS);
    }
  }

  /** Everything at once, with the pool's invariant checked: for {@code parl status} and tests. */
  record GetSnapshot() implements JobCenterRequest, Request<Snapshot> {}

  /** The waiting requests, each with why it waits (docs/contract.md §4.1). */
  record GetWaiting() implements JobCenterRequest, Request<WaitingList> {}

  /**
   * An operator takes a worker, or one of its GPUs, out of service or puts it back (docs/contract.md §11):
   * nothing new is placed there, what runs there goes on.
   *
   * @param gpu the GPU's index, or null for the whole worker
   */
  record Drain(String workerId, Integer gpu, boolean drained) implements JobCenterRequest, Request<Done> {
    public Drain {
      Checks.name("workerId", workerId);
      if (gpu != null) {
        Checks.range("gpu", gpu, 0, Checks.MAX_ID);
      }
    }
  }

  /**
   * A worker tells the health of the GPUs it lends (docs/contract.md §11), whenever one of them changed: a
   * faulty one is quarantined, and one that has been healthy long enough comes back. Only the
   * worker itself may report it: the JobCenter takes it only from the node the worker registered from.
   *
   * @param nodeId the worker's cluster node, as it registered
   * @param stopJobs what the worker's operator chose for the jobs on a faulty GPU: stop them (true,
   *     {@code --gpu-faults stop}) or only warn (false, {@code --gpu-faults warn})
   * @param gpus the condition of each GPU it lends
   */
  record GpuHealth(String workerId, String nodeId, boolean stopJobs, List<GpuCondition> gpus)
      implements JobCenterRequest, Request<Done> {
    public GpuHealth {
      Checks.name("workerId", workerId);
      Checks.name("nodeId", nodeId);
      gpus = Checks.list("gpus", gpus, WorkerState.MAX_GPUS);
    }
  }

  /**
   * One GPU's health as its worker read it.
   *
   * @param uuid its UUID, or null when unknown
   * @param fault what is wrong when not healthy ({@code uncorrected volatile ECC errors: 2}); null when healthy
   */
  record GpuCondition(@Required int index, @Required boolean healthy, String uuid, String fault) {
    public GpuCondition {
      Checks.range("index", index, 0, Checks.MAX_ID);
      uuid = Checks.text("uuid", uuid, Checks.MAX_STRING);
      fault = Checks.text("fault", fault, Checks.MAX_TEXT);
      if (!healthy && (fault == null || fault.isBlank())) {
        throw new org.parl.internal.wire.BadMessageException("field 'fault' must say what is wrong with unhealthy GPU " + index);
      }
    }
  }

  /** The waiting requests in figures, cheap enough for the monitor to ask every few seconds. */
  record GetQueue() implements JobCenterRequest, Request<QueueFigures> {}
}
