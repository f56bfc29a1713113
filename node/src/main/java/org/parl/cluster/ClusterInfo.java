package org.parl.cluster;

import io.vertx.core.json.JsonObject;

/**
 * How to reach a cluster, as the master hands it to joining workers and monitors and publishes it
 * in {@value Addresses#CLUSTER_MAP}.
 *
 * @param address the master's public {@code host:port}, what users pass to {@code --address}
 * @param clusterName the Hazelcast cluster name (unique per master)
 * @param hazelcast the master's Hazelcast member address, what joining members connect to
 * @param monitorUrl the monitor's URL, or empty when it runs none
 */
public record ClusterInfo(
    String address, String clusterName, String hazelcast, ClusterType type, int maxGpusPerActor, String monitorUrl) {

  public static ClusterInfo fromJson(JsonObject o) {
    return new ClusterInfo(
        Fields.string(o, "address"),
        Fields.string(o, "clusterName"),
        Fields.string(o, "hazelcast"),
        ClusterType.parse(Fields.string(o, "clusterType")),
        Fields.integer(o, "maxGpusPerActor", 1, 1024),
        o.getString("monitorUrl", ""));
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("address", address)
        .put("clusterName", clusterName)
        .put("hazelcast", hazelcast)
        .put("clusterType", type.label())
        .put("maxGpusPerActor", maxGpusPerActor)
        .put("monitorUrl", monitorUrl);
  }

}
