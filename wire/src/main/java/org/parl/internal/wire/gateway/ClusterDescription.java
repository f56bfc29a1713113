package org.parl.internal.wire.gateway;

import org.parl.internal.wire.BadMessageException;
import org.parl.internal.wire.Checks;
import org.parl.internal.wire.Required;

/**
 * How to reach a cluster, as the master hands it to joining workers, monitors and clients.
 *
 * @param address the master's public {@code host:port}, what users pass to {@code --address}
 * @param clusterName the Hazelcast cluster name (derived from the token per master start; for authenticated peers only)
 * @param hazelcast the master's Hazelcast member address, what joining members connect to
 * @param clusterType {@code "cpu"} or {@code "gpu"}
 * @param monitorUrl the monitor's URL, or empty when it runs none
 * @param encryptData whether job data ports speak TLS ({@code parl master --encrypt-data}); absent means false
 * @param masterMemberId the master's Hazelcast member UUID: joining workers and monitors recognise
 *     the master by it (a role attribute is set by each member itself, so anyone could claim one)
 * @param allowPreemption whether creates may preempt actors of lower priority ({@code parl master
 *     --allow-preemption}); absent means false
 */
public record ClusterDescription(String address, String clusterName, String hazelcast, String clusterType,
    @Required int maxGpusPerActor, String monitorUrl, boolean encryptData, String masterMemberId, boolean allowPreemption) {

  /** A cluster that allows no preemption. */
  public ClusterDescription(String address, String clusterName, String hazelcast, String clusterType, int maxGpusPerActor,
      String monitorUrl, boolean encryptData, String masterMemberId) {
    this(address, clusterName, hazelcast, clusterType, maxGpusPerActor, monitorUrl, encryptData, masterMemberId, false);
  }

  public ClusterDescription {
    Checks.name("address", address);
    Checks.name("clusterName", clusterName);
    Checks.name("hazelcast", hazelcast);
    if (!"cpu".equals(clusterType) && !"gpu".equals(clusterType) && !"mixed".equals(clusterType)) {
      throw new BadMessageException("field 'clusterType' must be \"cpu\", \"gpu\" or \"mixed\", not " + clusterType);
    }
    Checks.range("maxGpusPerActor", maxGpusPerActor, 1, 1024);
    monitorUrl = Checks.text("monitorUrl", monitorUrl == null ? "" : monitorUrl, Checks.MAX_STRING);
    Checks.name("masterMemberId", masterMemberId);
  }
}
