package org.parl.cluster;

/** Event-bus addresses and cluster-map names shared by all nodes. */
public final class Addresses {

  private Addresses() {}

  /** The JobCenter: worker registration, allocation, release, job ends, snapshots. */
  public static final String JOB_CENTER = "parl.jobcenter";

  /**
   * The JobCenter of the master with this member UUID: what nodes that follow the masters address
   * (docs/contract.md §10), so that a request never goes to a JobCenter that left, whose registration of
   * {@link #JOB_CENTER} the event bus may still hold for a moment.
   */
  public static String jobCenter(String memberId) {
    return JOB_CENTER + "." + memberId;
  }

  /** Published to every master: job ends and losses the JobCenter reports to the client gateways. */
  public static final String JOB_EVENTS = "parl.master.job-events";

  /** Published to every master: a worker left the pool (pending launches on it must fail). */
  public static final String WORKER_LOST = "parl.master.worker-lost";

  /** Local to each node: the active master changed (docs/contract.md §10). */
  public static final String MASTERS_CHANGED = "parl.masters-changed";

  /** One master's gateway, asked by the JobCenter which clients and jobs it holds. */
  public static String gateway(String memberId) {
    return "parl.gateway." + memberId;
  }

  /** One worker's control address. */
  public static String worker(String workerId) {
    return "parl.worker." + workerId;
  }

  /**
   * One job's verticle on its worker, while the job's process lives: what the JobCenter and the
   * monitors ask of that job alone (its status, its log, to stop it).
   */
  public static String job(String jobId) {
    return "parl.job." + jobId;
  }

  /** Member attribute telling what a Hazelcast member is (master, worker, monitor). */
  public static final String ROLE_ATTRIBUTE = "parl.role";

  /** The member attribute under which vertx-hazelcast stores a member's Vert.x node id. */
  public static final String NODE_ID_ATTRIBUTE = "__vertx.nodeId";

  /** Cluster map: worker id to its pool record (JSON), written only by the JobCenter. */
  public static final String WORKERS_MAP = "parl.workers";

  /** Cluster map: job id to its record (JSON), written only by the JobCenter. */
  public static final String JOBS_MAP = "parl.jobs";

  /** Cluster map: client id to its record (JSON), written only by the master's gateway. */
  public static final String CLIENTS_MAP = "parl.clients";

  /** Cluster map: client id to the SHA-256 of its resume ticket, written only by the masters' gateways. */
  public static final String CLIENT_TICKETS = "parl.client-tickets";

  /** Cluster map: worker id to its latest host statistics (JSON), written by that worker. */
  public static final String STATS_MAP = "parl.stats";

  /** Cluster map: master member UUID to its signed record ({@code org.parl.ha.MasterRecord}). */
  public static final String MASTERS_MAP = "parl.masters";

  /**
   * Cluster map: {@link #CLUSTER_KEY} holds the cluster's description, {@link #gatewayKey} each
   * master's gateway connections against their caps.
   */
  public static final String CLUSTER_MAP = "parl.cluster";

  public static final String CLUSTER_KEY = "cluster";

  /** The key under which a master's gateway publishes its connections against their caps, in {@link #CLUSTER_MAP}. */
  public static String gatewayKey(String memberId) {
    return "gateway." + memberId;
  }
}
