package org.parl.cli;

import java.util.function.Consumer;
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
   * Tells {@code gone} (on Hazelcast's thread) when the master leaves the cluster, naming the member
   * that left: {@code the master at HOST:PORT (member UUID)}.
   *
   * @throws NodeFailure when the master is already gone, so that the node does not start
   */
  static void onDeparture(ClusterNode node, ClusterInfo info, HostPort master, Consumer<String> gone) {
    String masterId = info.masterMemberId();
    node.onMemberRemoved(left -> {
      if (left.memberId().equals(masterId)) {
        gone.accept("the master at " + master + " (member " + left.memberId() + ")");
      }
    });
    // after subscribing, so that a departure between the check and the subscription is not missed
    if (!node.isMember(masterId)) {
      throw new NodeFailure("joined no parl master through " + info.hazelcast() + ": the master at " + master
          + " may have just stopped");
    }
  }
}
