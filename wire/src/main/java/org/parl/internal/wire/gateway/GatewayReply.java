package org.parl.internal.wire.gateway;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;
import org.parl.internal.resources.GroupRequest;
import org.parl.internal.wire.BadMessageException;
import org.parl.internal.wire.Checks;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.Required;

/**
 * What the master's gateway sends back, one JSON line each: the answer to a request (with the
 * request's id) or an event about one of the client's jobs.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
public sealed interface GatewayReply {

  /** Most workers a status answer lists. */
  int MAX_WORKERS = 100_000;
  /** Most runtime jars a welcome lists. */
  int MAX_JARS = 10_000;

  /** An answer to the request with the same id. */
  sealed interface Answer extends GatewayReply {
    /** The id of the request answered; null only when the request was too broken to have one. */
    Long requestId();
  }

  /**
   * The first line on every connection, sent unasked: the gateway's fresh nonce, which the peer's
   * {@link GatewayRequest.Authenticate} must answer.
   *
   * @param nonce {@value GatewayAuth#BYTES} bytes in hex
   */
  record Challenge(String nonce) implements GatewayReply {
    public Challenge {
      GatewayAuth.hex("nonce", nonce);
    }
  }

  /**
   * The answer to a right {@link GatewayRequest.Authenticate}: the gateway's own proof of the token,
   * which the peer checks before it says anything else (see {@link ServerHandshake}).
   */
  record Authenticated(@Required long id, String proof) implements Answer {
    public Authenticated {
      GatewayAuth.hex("proof", proof);
    }

    @Override
    public Long requestId() {
      return id;
    }
  }

  /** Size of a client's resume ticket: 256 random bits. */
  int TICKET_BYTES = 32;

  /** Checks a resume ticket's form: {@value #TICKET_BYTES} bytes as lowercase hex digits. */
  static String ticket(String field, String value) {
    if (value.length() != 2 * TICKET_BYTES
        || !value.chars().allMatch(c -> c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
      throw new BadMessageException("field '" + field + "' must be " + TICKET_BYTES + " bytes as " + 2 * TICKET_BYTES
          + " lowercase hex digits");
    }
    return value;
  }

  /**
   * The answer to {@link GatewayRequest.ClientHello}.
   *
   * @param runtime the jars every job process already has, so that the client does not ship them
   * @param resumeTicket a new client's secret for resuming its session at another master (see
   *     {@link GatewayRequest.ClientHello}); null for a resumed session, which keeps its ticket
   */
  record Welcome(@Required long id, ClusterDescription cluster, String clientId, List<RuntimeJar> runtime,
      String resumeTicket) implements Answer {
    public Welcome {
      Checks.present("cluster", cluster);
      Checks.name("clientId", clientId);
      runtime = Checks.list("runtime", runtime, MAX_JARS);
      if (resumeTicket != null) {
        ticket("resumeTicket", resumeTicket);
      }
    }

    @Override
    public String toString() { // the ticket is a secret: never in a log line
      return "Welcome[id=" + id + ", cluster=" + cluster + ", clientId=" + clientId + ", runtime=" + runtime.size()
          + " jar(s)]";
    }

    @Override
    public Long requestId() {
      return id;
    }
  }

  /** The answer to a worker's or monitor's hello: how to join the cluster. */
  record Joining(@Required long id, ClusterDescription cluster) implements Answer {
    public Joining {
      Checks.present("cluster", cluster);
    }

    @Override
    public Long requestId() {
      return id;
    }
  }

  /** Most waiting creates one answer lists. */
  int MAX_WAITING = 1 << 16;

  /** The answer to {@link GatewayRequest.StatusHello}: the cluster and its pool, in figures. */
  record Status(@Required long id, ClusterDescription cluster, List<WorkerState> workers, int jobs, int waiting,
      int clients, List<MasterState> masters, List<WaitingCreate> waitingCreates) implements Answer {
    public Status {
      waitingCreates = Checks.list("waitingCreates", waitingCreates, MAX_WAITING);
      Checks.present("cluster", cluster);
      workers = Checks.list("workers", workers, MAX_WORKERS);
      masters = Checks.list("masters", masters, MasterState.MAX_MASTERS);
      Checks.range("jobs", jobs, 0, Integer.MAX_VALUE);
      Checks.range("waiting", waiting, 0, Integer.MAX_VALUE);
      Checks.range("clients", clients, 0, Integer.MAX_VALUE);
    }

    @Override
    public Long requestId() {
      return id;
    }
  }

  /** The answer to {@link GatewayRequest.ListWaiting}: the creates waiting for resources in queue order, with why. */
  record Waiting(@Required long id, List<WaitingCreate> waiting) implements Answer {
    public Waiting {
      waiting = Checks.list("waiting", waiting, MAX_WAITING);
    }

    @Override
    public Long requestId() {
      return id;
    }
  }

  /** The answer to {@link GatewayRequest.Create}: where the new job runs and how to call it. */
  record Created(@Required long id, JobPlacement placement) implements Answer {
    public Created {
      Checks.present("placement", placement);
    }

    @Override
    public Long requestId() {
      return id;
    }
  }

  /**
   * The answer to {@link GatewayRequest.ReserveGroup}: the group is held, each bundle on its worker.
   *
   * @param groupId the group's id in the cluster
   * @param bundles what each bundle holds, in the order of the request
   */
  record GroupReserved(@Required long id, String groupId, List<BundleHeld> bundles) implements Answer {
    public GroupReserved {
      Checks.name("groupId", groupId);
      bundles = Checks.list("bundles", bundles, GroupRequest.MAX_BUNDLES);
    }

    @Override
    public Long requestId() {
      return id;
    }
  }

  /**
   * Where one bundle of a placement group is held.
   *
   * @param workerId the worker that lends it
   * @param hostname that worker's host
   * @param gpus the GPU ids it holds there (empty for CPUs alone)
   */
  record BundleHeld(String workerId, String hostname, List<Integer> gpus) {
    public BundleHeld {
      Checks.name("workerId", workerId);
      Checks.name("hostname", hostname);
      gpus = Checks.ids("gpus", gpus, WorkerState.MAX_GPUS);
    }
  }

  /** The answer to a request that has nothing to say but that it was done (kill, ping). */
  record Done(@Required long id) implements Answer {
    @Override
    public Long requestId() {
      return id;
    }
  }

  /**
   * The answer to a request that failed.
   *
   * @param id the request's id, or null when the line had none that could be read
   */
  record Failed(Long id, ErrorKind kind, String message) implements Answer {
    public Failed {
      Checks.present("kind", kind);
      message = Checks.text("message", Checks.present("message", message), Checks.MAX_TEXT);
    }

    @Override
    public Long requestId() {
      return id;
    }
  }

  /**
   * Event: one of the client's jobs ended (closed, crashed, killed, or lost with its worker).
   *
   * @param lost true when the job did not end on request
   * @param gpuFault the faulty GPU for which the JobCenter stopped the job, or null
   */
  record JobEnded(String jobId, String workerId, String cause, boolean lost, GpuFault gpuFault, boolean preempted)
      implements GatewayReply {
    public JobEnded {
      Checks.name("jobId", jobId);
      Checks.name("workerId", workerId);
      cause = Checks.text("cause", Checks.present("cause", cause), Checks.MAX_TEXT);
    }

    /** A job that ended for another reason than a GPU fault. */
    public JobEnded(String jobId, String workerId, String cause, boolean lost) {
      this(jobId, workerId, cause, lost, null, false);
    }

    /** A job that ended for a GPU fault, or another reason than preemption. */
    public JobEnded(String jobId, String workerId, String cause, boolean lost, GpuFault gpuFault) {
      this(jobId, workerId, cause, lost, gpuFault, false);
    }
  }
}
