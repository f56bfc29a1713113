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
 * @param encryptData whether job data ports speak TLS ({@code parl master --encrypt-data}); in JSON
 *     {@value #ENCRYPT_DATA}, absent meaning false
 */
public record ClusterInfo(
    String address, String clusterName, String hazelcast, ClusterType type, int maxGpusPerActor, String monitorUrl,
    boolean encryptData) {

  /** The JSON field of {@link #encryptData}, also in the gateway's answer to a client's hello. */
  public static final String ENCRYPT_DATA = "encryptData";

  /** A cluster whose data path is not encrypted. */
  public ClusterInfo(String address, String clusterName, String hazelcast, ClusterType type, int maxGpusPerActor,
      String monitorUrl) {
    this(address, clusterName, hazelcast, type, maxGpusPerActor, monitorUrl, false);
  }

  public static ClusterInfo fromJson(JsonObject o) {
    return new ClusterInfo(
        Fields.string(o, "address"),
        Fields.string(o, "clusterName"),
        Fields.string(o, "hazelcast"),
        ClusterType.parse(Fields.string(o, "clusterType")),
        Fields.integer(o, "maxGpusPerActor", 1, 1024),
        o.getString("monitorUrl", ""),
        Boolean.TRUE.equals(o.getValue(ENCRYPT_DATA)));
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("address", address)
        .put("clusterName", clusterName)
        .put("hazelcast", hazelcast)
        .put("clusterType", type.label())
        .put("maxGpusPerActor", maxGpusPerActor)
        .put("monitorUrl", monitorUrl)
        .put(ENCRYPT_DATA, encryptData);
  }

}
