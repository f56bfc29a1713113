package org.parl.cluster;

import io.vertx.core.json.JsonObject;
import org.parl.control.ClusterType;
import org.parl.internal.wire.gateway.ClusterDescription;
import org.parl.internal.wire.gateway.GatewayCodec;

/**
 * How to reach a cluster, as the master hands it to joining workers and monitors and publishes it
 * in {@value Addresses#CLUSTER_MAP}: a node's view of the gateway's {@link ClusterDescription},
 * with the cluster type as an enum.
 *
 * @param address the master's public {@code host:port}, what users pass to {@code --address}
 * @param clusterName the Hazelcast cluster name (derived from the token, unique per master start: {@link ClusterName})
 * @param hazelcast the master's Hazelcast member address, what joining members connect to
 * @param monitorUrl the monitor's URL, or empty when it runs none
 * @param encryptData whether job data ports speak TLS ({@code parl master --encrypt-data}); in JSON
 *     {@value #ENCRYPT_DATA}, absent meaning false
 * @param masterMemberId the master's Hazelcast member UUID: the identity whose departure means the
 *     master is gone ({@link ClusterNode#isMember})
 * @param allowPreemption whether creates may preempt actors of lower priority ({@code parl master --allow-preemption})
 */
public record ClusterInfo(
    String address, String clusterName, String hazelcast, ClusterType type, int maxGpusPerActor, String monitorUrl,
    boolean encryptData, String masterMemberId, boolean allowPreemption) {

  /** The JSON field of {@link #encryptData}, also in the gateway's answer to a client's hello. */
  public static final String ENCRYPT_DATA = "encryptData";

  public static ClusterInfo of(ClusterDescription d) {
    return new ClusterInfo(d.address(), d.clusterName(), d.hazelcast(), ClusterType.parse(d.clusterType()),
        d.maxGpusPerActor(), d.monitorUrl(), d.encryptData(), d.masterMemberId(), d.allowPreemption());
  }

  public ClusterDescription description() {
    return new ClusterDescription(address, clusterName, hazelcast, type.label(), maxGpusPerActor, monitorUrl, encryptData,
        masterMemberId, allowPreemption);
  }

  public JsonObject toJson() {
    return GatewayCodec.toJson(description());
  }
}
