package org.parl.control;

import java.util.List;
import org.parl.control.WorkerRequest.Launch;
import org.parl.internal.resources.GroupRequest;
import org.parl.internal.wire.Checks;
import org.parl.internal.wire.Required;
import org.parl.internal.wire.gateway.GatewayReply;
import org.parl.internal.wire.gateway.GroupRecord;
import org.parl.internal.wire.gateway.Job;
import org.parl.internal.wire.gateway.JobPlacement;
import org.parl.internal.wire.gateway.WaitingCreate;
import org.parl.internal.wire.gateway.WorkerState;

/** The replies to {@link Request}s; a failure is an event-bus failure with an {@code ErrorKind} code instead. */
public sealed interface ControlReply extends ControlMessage {

  /** Most jobs a snapshot or job list carries. */
  int MAX_JOBS = 1 << 20;

  /** The creates waiting for resources, in queue order, each with why (answer to {@code GetWaiting}). */
  record WaitingList(List<WaitingCreate> waiting) implements ControlReply {
    public WaitingList {
      waiting = Checks.list("waiting", waiting, MAX_JOBS);
    }
  }

  /** Done, nothing more to say. */
  record Done() implements ControlReply {}

  /**
   * A worker's registration was accepted by a cluster of this type.
   *
   * @param stop the reported jobs the JobCenter could not adopt (their resources conflict with
   *     another job's, or they are unknown twice over): the worker stops them
   */
  record Registered(ClusterType clusterType, List<String> stop) implements ControlReply {
    public Registered {
      Checks.present("clusterType", clusterType);
      stop = Checks.list("stop", stop, MAX_JOBS);
    }
  }

  /** The jobs a resuming client still holds (answer to {@code ClaimJobs}). */
  record Claimed(List<Job> held) implements ControlReply {
    public Claimed {
      held = Checks.list("held", held, MAX_JOBS);
    }
  }

  /** The jobs a master's gateway knows to be held by its live clients, or being placed for them. */
  record Held(List<String> jobIds) implements ControlReply {
    public Held {
      jobIds = Checks.list("jobIds", jobIds, MAX_JOBS);
    }
  }

  /**
   * Resources granted to a job: the launch to send its worker, as the JobCenter made it.
   *
   * @param launch the job with its resources, and the master that granted it
   * @param workerNodeId the worker's cluster node (a launch on this very node skips the cluster)
   */
  record Granted(Launch launch, String workerNodeId) implements ControlReply {
    public Granted {
      Checks.present("launch", launch);
      Checks.name("workerNodeId", workerNodeId);
    }
  }

  /**
   * A placement group held: its id, and where each bundle is, in the order asked.
   */
  record GroupGranted(String groupId, List<GatewayReply.BundleHeld> bundles) implements ControlReply {
    public GroupGranted {
      Checks.name("groupId", groupId);
      bundles = Checks.list("bundles", bundles, GroupRequest.MAX_BUNDLES);
    }
  }

  /** How many waiting requests of a client were given up. */
  record Cancelled(int count) implements ControlReply {
    public Cancelled {
      Checks.range("count", count, 0, Integer.MAX_VALUE);
    }
  }

  /**
   * Requests waiting for resources, the oldest one's wait, and the most that one client has waiting
   * (against {@code jobs.maxWaitingPerClient}); and the jobs this JobCenter started, and those it
   * saw lost (a job process or its worker died), since it became active.
   */
  record QueueFigures(int waiting, long longestWaitMs, int mostWaitingOfOneClient, long jobsStarted, long jobsLost,
      java.util.Map<String, Integer> byReason) implements ControlReply {
    public QueueFigures {
      byReason = byReason == null ? java.util.Map.of() : java.util.Map.copyOf(byReason);
      if (byReason.size() > 32) {
        throw new org.parl.internal.wire.BadMessageException("field 'byReason' has " + byReason.size() + " entries, at most 32 allowed");
      }
      Checks.range("waiting", waiting, 0, Integer.MAX_VALUE);
      Checks.range("longestWaitMs", longestWaitMs, 0, Long.MAX_VALUE);
      Checks.range("mostWaitingOfOneClient", mostWaitingOfOneClient, 0, Integer.MAX_VALUE);
      Checks.range("jobsStarted", jobsStarted, 0, Long.MAX_VALUE);
      Checks.range("jobsLost", jobsLost, 0, Long.MAX_VALUE);
    }

    public QueueFigures(int waiting, long longestWaitMs, int mostWaitingOfOneClient) {
      this(waiting, longestWaitMs, mostWaitingOfOneClient, 0, 0, java.util.Map.of());
    }

    public QueueFigures(int waiting, long longestWaitMs) {
      this(waiting, longestWaitMs, 0);
    }
  }

  /**
   * The JobCenter's whole state.
   *
   * @param invariant {@code "ok"}, or what is wrong with the pool's accounting
   */
  record Snapshot(ClusterType clusterType, @Required int maxGpusPerActor, List<WorkerState> workers, List<Job> jobs,
      int waiting, long longestWaitMs, String invariant, List<GroupRecord> groups) implements ControlReply {
    public Snapshot {
      Checks.present("clusterType", clusterType);
      Checks.range("maxGpusPerActor", maxGpusPerActor, 1, 1024);
      workers = Checks.list("workers", workers, GatewayReply.MAX_WORKERS);
      jobs = Checks.list("jobs", jobs, MAX_JOBS);
      Checks.range("waiting", waiting, 0, Integer.MAX_VALUE);
      Checks.range("longestWaitMs", longestWaitMs, 0, Long.MAX_VALUE);
      Checks.name("invariant", invariant);
      groups = Checks.list("groups", groups == null ? List.of() : groups, MAX_JOBS);
    }
  }

  /**
   * A job process listens: the answer to a {@link Launch}, which the gateway passes on to the client as it is.
   *
   * @param placement the job launched, and where its process listens
   */
  record Launched(JobPlacement placement) implements ControlReply {
    public Launched {
      Checks.present("placement", placement);
    }
  }

  /** A job as its worker knows it, with (part of) its log. */
  record JobLog(JobView job, String log) implements ControlReply {
    public JobLog {
      Checks.present("job", job);
      Checks.present("log", log);
    }
  }

  /** A job as its worker knows it (answer to {@code ReadStatus}). */
  record JobStatus(JobView job) implements ControlReply {
    public JobStatus {
      Checks.present("job", job);
    }
  }

  /** The jobs a worker knows. */
  record JobList(List<JobView> jobs) implements ControlReply {
    public JobList {
      jobs = Checks.list("jobs", jobs, MAX_JOBS);
    }
  }
}
