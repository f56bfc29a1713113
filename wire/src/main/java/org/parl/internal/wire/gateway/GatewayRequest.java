package org.parl.internal.wire.gateway;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;
import org.parl.ActorBuilder;
import org.parl.internal.resources.GroupRequest;
import org.parl.internal.resources.ResourceRequest;
import org.parl.internal.wire.BadMessageException;
import org.parl.internal.wire.Checks;
import org.parl.internal.wire.Required;

/**
 * What a peer sends to the master's gateway, one JSON line each, named by its {@code type}:
 * {@code {"type":"Create","id":7,"cpus":1,"timeoutMs":30000,"actorClass":"my.Actor"}}. Every
 * request carries an id that its answer repeats. A connection first proves that it holds the
 * cluster token ({@link Authenticate}, see {@link GatewayAuth}), then says hello; the kind of hello
 * tells what the peer is: a client, a joining worker or monitor, or {@code parl status}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
public sealed interface GatewayRequest {

  /** The request's id, chosen by the sender; its answer carries the same. */
  long id();

  /** Longest resource wait a client may ask for. */
  long MAX_TIMEOUT_MS = 24L * 3600 * 1000;

  /**
   * The answer to the gateway's {@link GatewayReply.Challenge}, and the only request it takes
   * before: the peer's own nonce and its proof of the token. Answered by
   * {@link GatewayReply.Authenticated}, or refused (and the connection closed).
   *
   * @param nonce the peer's fresh nonce, {@value GatewayAuth#BYTES} bytes in hex
   * @param proof see {@link ClientHandshake}, in hex
   */
  record Authenticate(@Required long id, String nonce, String proof) implements GatewayRequest {
    public Authenticate {
      Checks.range("id", id, 0, Long.MAX_VALUE);
      GatewayAuth.hex("nonce", nonce);
      GatewayAuth.hex("proof", proof);
    }
  }

  /** The first request after authentication; which one tells what the peer is. */
  sealed interface Hello extends GatewayRequest {}

  /** Most jobs a resuming client may claim (docs/contract.md §10). */
  int MAX_RESUMED_JOBS = 100_000;

  /**
   * A user program connects: answered by {@link GatewayReply.Welcome}. A client whose master
   * connection broke (its master died or stopped, docs/contract.md §10) connects to another master with
   * {@code resumeClientId} and the jobs it holds: it keeps its id, and its jobs stay its own; the
   * gateway tells it with {@link GatewayReply.JobEnded} about any of them the cluster lost meanwhile.
   * Only the client that opened the session can resume it: it proves so with the secret
   * {@code resumeTicket} of its first {@link GatewayReply.Welcome}.
   *
   * @param resumeClientId the id the client had, or null for a new client
   * @param resumeJobs the jobs it holds (empty for a new client)
   * @param resumeTicket the ticket of the session resumed ({@value GatewayReply#TICKET_BYTES} bytes in hex), or null
   */
  record ClientHello(@Required long id, String program, String hostname, Long pid, String resumeClientId,
      List<String> resumeJobs, String resumeTicket) implements Hello {
    public ClientHello {
      Checks.range("id", id, 0, Long.MAX_VALUE);
      program = Checks.name("program", program, "?");
      hostname = Checks.name("hostname", hostname, "?");
      if (pid != null) {
        Checks.range("pid", pid, 0, Long.MAX_VALUE);
      }
      if (resumeClientId != null) {
        Checks.name("resumeClientId", resumeClientId);
      }
      resumeJobs = Checks.list("resumeJobs", resumeJobs, MAX_RESUMED_JOBS);
      resumeJobs.forEach(j -> Checks.name("resumeJobs", j));
      if (resumeClientId == null && !resumeJobs.isEmpty()) {
        throw new BadMessageException("field 'resumeJobs' needs 'resumeClientId'");
      }
      if (resumeTicket != null) {
        GatewayReply.ticket("resumeTicket", resumeTicket);
        if (resumeClientId == null) {
          throw new BadMessageException("field 'resumeTicket' needs 'resumeClientId'");
        }
      }
    }

    /** A new client's hello. */
    public ClientHello(long id, String program, String hostname, Long pid) {
      this(id, program, hostname, pid, null, List.of(), null);
    }

    @Override
    public String toString() { // the ticket is a secret: never in a log line
      return "ClientHello[id=" + id + ", program=" + program + ", hostname=" + hostname + ", pid=" + pid
          + ", resumeClientId=" + resumeClientId + ", resumeJobs=" + resumeJobs.size() + "]";
    }
  }

  /** A standby master about to join the cluster (docs/contract.md §10): answered by {@link GatewayReply.Joining}. */
  record MasterHello(@Required long id) implements Hello {
    public MasterHello {
      Checks.range("id", id, 0, Long.MAX_VALUE);
    }
  }

  /** A worker about to join the cluster: answered by {@link GatewayReply.Joining}. */
  record WorkerHello(@Required long id) implements Hello {
    public WorkerHello {
      Checks.range("id", id, 0, Long.MAX_VALUE);
    }
  }

  /** A monitor about to join the cluster: answered by {@link GatewayReply.Joining}. */
  record MonitorHello(@Required long id) implements Hello {
    public MonitorHello {
      Checks.range("id", id, 0, Long.MAX_VALUE);
    }
  }

  /** {@code parl status}: answered by {@link GatewayReply.Status}. */
  record StatusHello(@Required long id) implements Hello {
    public StatusHello {
      Checks.range("id", id, 0, Long.MAX_VALUE);
    }
  }

  /**
   * {@code parl drain} / {@code parl undrain}: an operator holding the token takes a worker, or one
   * of its GPUs, out of service or puts it back (nothing new placed there; what runs there goes on).
   * Answered by {@link GatewayReply.Done}.
   *
   * @param gpu the GPU's index, or null for the whole worker
   */
  record DrainHello(@Required long id, String workerId, Integer gpu, boolean drained) implements Hello {
    public DrainHello {
      Checks.range("id", id, 0, Long.MAX_VALUE);
      Checks.name("workerId", workerId);
      if (gpu != null) {
        Checks.range("gpu", gpu, 0, Checks.MAX_ID);
      }
    }
  }

  /**
   * A client asks for an actor's job: answered by {@link GatewayReply.Created} once resources are
   * granted and the job process runs.
   *
   * @param waitForWorkers whether a request that no worker of the cluster could ever hold waits (up to
   *     {@code timeoutMs}) for a worker that may join, instead of failing at once
   * @param priority its place in the queue while it waits, 0 (the default) to {@link ActorBuilder#MAX_PRIORITY}
   * @param preempt whether it may preempt jobs of lower priority while it waits ({@link ActorBuilder#preempt})
   * @param group the placement group whose bundle it takes, or null: the actor then takes exactly that
   *     bundle's resources (its own {@code resources} only add the memory limit) and never waits
   * @param bundle the bundle's index in {@code group}; null without a group
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Create(@Required long id, ResourceRequest resources, @Required long timeoutMs, String actorClass,
      boolean waitForWorkers, int priority, boolean preempt, String group, Integer bundle) implements GatewayRequest {
    public Create {
      Checks.range("id", id, 0, Long.MAX_VALUE);
      Checks.range("timeoutMs", timeoutMs, 0, MAX_TIMEOUT_MS);
      actorClass = Checks.name("actorClass", actorClass, "?");
      Checks.present("resources", resources);
      Checks.range("priority", priority, 0, ActorBuilder.MAX_PRIORITY);
      if ((group == null) != (bundle == null)) {
        throw new BadMessageException("fields 'group' and 'bundle' come together or not at all");
      }
      if (group != null) {
        Checks.name("group", group);
        Checks.range("bundle", bundle, 0, GroupRequest.MAX_BUNDLES - 1);
      }
    }

    /** A create of an actor of its own, at the default priority. */
    public Create(long id, ResourceRequest resources, long timeoutMs, String actorClass, boolean waitForWorkers) {
      this(id, resources, timeoutMs, actorClass, waitForWorkers, 0, false, null, null);
    }

    /** The same create with another time to wait. */
    public Create withTimeoutMs(long ms) {
      return new Create(id, resources, ms, actorClass, waitForWorkers, priority, preempt, group, bundle);
    }
  }

  /**
   * A client reserves a placement group: every bundle at once or none, answered by
   * {@link GatewayReply.GroupReserved} when the JobCenter holds them all, or failed after {@code timeoutMs}.
   *
   * @param group the bundles and where they go
   * @param waitForWorkers as for {@link Create}
   * @param priority as for {@link Create}
   */
  record ReserveGroup(@Required long id, GroupRequest group, @Required long timeoutMs, boolean waitForWorkers, int priority)
      implements GatewayRequest {
    public ReserveGroup {
      Checks.range("id", id, 0, Long.MAX_VALUE);
      Checks.present("group", group);
      Checks.range("timeoutMs", timeoutMs, 0, MAX_TIMEOUT_MS);
      Checks.range("priority", priority, 0, ActorBuilder.MAX_PRIORITY);
    }

    /** The same reservation with another time to wait. */
    public ReserveGroup withTimeoutMs(long ms) {
      return new ReserveGroup(id, group, ms, waitForWorkers, priority);
    }
  }

  /** A client removes one of its placement groups, stopping the actors in it: answered by {@link GatewayReply.Done}. */
  record RemoveGroup(@Required long id, String groupId) implements GatewayRequest {
    public RemoveGroup {
      Checks.range("id", id, 0, Long.MAX_VALUE);
      Checks.name("groupId", groupId);
    }
  }

  /** A client stops one of its jobs: answered by {@link GatewayReply.Done}. */
  record Kill(@Required long id, String jobId) implements GatewayRequest {
    public Kill {
      Checks.range("id", id, 0, Long.MAX_VALUE);
      Checks.name("jobId", jobId);
    }
  }

  /** A client asks which creates wait for resources, and why: answered by {@link GatewayReply.Waiting}. */
  record ListWaiting(@Required long id) implements GatewayRequest {
    public ListWaiting {
      Checks.range("id", id, 0, Long.MAX_VALUE);
    }
  }

  /** A client's keep-alive: answered by {@link GatewayReply.Done}. */
  record Ping(@Required long id) implements GatewayRequest {
    public Ping {
      Checks.range("id", id, 0, Long.MAX_VALUE);
    }
  }
}
