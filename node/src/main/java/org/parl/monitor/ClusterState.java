package org.parl.monitor;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Set;

/**
 * One reading of what the cluster publishes: the records of the cluster maps, decoded, plus the
 * JobCenter's queue figures.
 *
 * @param cluster the cluster's description ({@code parl.cluster}), empty if not yet published
 * @param workers worker id to pool record ({@code parl.workers})
 * @param jobs live job id to record ({@code parl.jobs})
 * @param clients client id to record ({@code parl.clients})
 * @param stats worker id to host statistics ({@code parl.stats}); may hold dead workers' entries
 * @param queue the JobCenter snapshot's {@code waiting} and {@code longestWaitMs}, or null when
 *     the JobCenter did not answer
 * @param liveNodes Vert.x node ids of the current cluster members, or null when unknown; workers
 *     on other nodes are dead even if the JobCenter has not dropped them yet
 * @param gateway the master's gateway connections against their caps ({@code org.parl.limits.GatewayUse}),
 *     or null when not (yet) published
 */
public record ClusterState(
    JsonObject cluster,
    Map<String, JsonObject> workers,
    Map<String, JsonObject> jobs,
    Map<String, JsonObject> clients,
    Map<String, JsonObject> stats,
    JsonObject queue,
    Set<String> liveNodes,
    JsonObject gateway) {

  /** A reading without the gateway's figures. */
  public ClusterState(JsonObject cluster, Map<String, JsonObject> workers, Map<String, JsonObject> jobs,
      Map<String, JsonObject> clients, Map<String, JsonObject> stats, JsonObject queue, Set<String> liveNodes) {
    this(cluster, workers, jobs, clients, stats, queue, liveNodes, null);
  }

  /** True when the worker's record is there and its node is (as far as known) alive. */
  public boolean workerAlive(String workerId) {
    JsonObject w = workers.get(workerId);
    return w != null && (liveNodes == null || w.getString("nodeId") == null || liveNodes.contains(w.getString("nodeId")));
  }
}
