package org.parl.cluster;

/** Event-bus addresses and cluster-map names shared by all nodes. */
public final class Addresses {

  private Addresses() {}

  /** The JobCenter: worker registration, allocation, release, job ends, snapshots. */
  public static final String JOB_CENTER = "parl.jobcenter";

  /** Local to the master: job ends and losses the JobCenter reports to the client gateway. */
  public static final String JOB_EVENTS = "parl.master.job-events";

  /** Local to the master: a worker left the pool (its pending launches must fail). */
  public static final String WORKER_LOST = "parl.master.worker-lost";

  /** One worker's control address. */
  public static String worker(String workerId) {
    return "parl.worker." + workerId;
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

  /** Cluster map: worker id to its latest host statistics (JSON), written by that worker. */
  public static final String STATS_MAP = "parl.stats";

  /**
   * Cluster map: {@link #CLUSTER_KEY} holds the cluster's description, {@link #GATEWAY_KEY} the
   * master's gateway connections against their caps.
   */
  public static final String CLUSTER_MAP = "parl.cluster";

  public static final String CLUSTER_KEY = "cluster";

  /** The gateway's connection figures ({@code org.parl.limits.GatewayUse}), written only by the master's gateway. */
  public static final String GATEWAY_KEY = "gateway";
}
