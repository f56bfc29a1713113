package org.parl.cli;

import org.parl.cluster.ClusterInfo;
import org.parl.cluster.ClusterNode;
import org.parl.net.HostPort;
import org.parl.node.NodeFailure;

/**
 * How a worker or a monitor notices that its master is gone: by the master's Hazelcast member
 * UUID, learnt from the authenticated hello answer, never by a role attribute (any member may set
 * one, so a stranger announcing "master" and leaving changes nothing).
 */
final class MasterWatch {

  private MasterWatch() {}

  /**
   * Runs {@code gone} (on Hazelcast's thread) when the master leaves the cluster.
   *
   * @throws NodeFailure when the master is already gone, so that the node does not start
   */
  static void onDeparture(ClusterNode node, ClusterInfo info, HostPort master, Runnable gone) {
    String masterId = info.masterMemberId();
    node.onMemberRemoved(left -> {
      if (left.memberId().equals(masterId)) {
        gone.run();
      }
    });
    // after subscribing, so that a departure between the check and the subscription is not missed
    if (!node.isMember(masterId)) {
      throw new NodeFailure("joined no parl master through " + info.hazelcast() + ": the master at " + master
          + " may have just stopped");
    }
  }
}
