package org.parl.cli;

import java.util.function.Consumer;
import org.parl.cluster.Addresses;
import org.parl.cluster.ClusterInfo;
import org.parl.cluster.ClusterNode;
import org.parl.control.LocalEvent.MastersChanged;
import org.parl.ha.MasterDirectory;
import org.parl.internal.security.ClusterToken;
import org.parl.node.NodeFailure;
import org.parl.node.Nodes;

/**
 * How a worker or a monitor follows the cluster's masters (docs/contract.md §10): by the records the masters sign
 * with the cluster token ({@link MasterDirectory}), never by a role attribute (any member may set one,
 * so a stranger announcing "master" and leaving changes nothing).
 */
final class MasterWatch {

  private static final long NO_MASTER_GRACE_MS = 2_000;

  private MasterWatch() {}

  /**
   * Starts this node's directory of masters; tells {@code lastGone} (on the node's event loop) when
   * the last master has left, naming it: {@code the master at HOST:PORT (member UUID)}.
   *
   * @throws NodeFailure when no master is in the cluster any more, so that the node does not start
   */
  static MasterDirectory follow(ClusterNode node, ClusterToken token, ClusterInfo info, Consumer<String> lastGone) {
    MasterDirectory directory = new MasterDirectory(node, token);
    node.vertx().eventBus().localConsumer(Addresses.MASTERS_CHANGED, m -> {
      if (m.body() instanceof MastersChanged e && e.active() == null && e.previous() != null) {
        // believed after a moment: a master whose record was lost writes it again at once
        node.vertx().setTimer(NO_MASTER_GRACE_MS, t -> {
          if (directory.current().active().isEmpty()) {
            lastGone.accept("the master at " + e.previousAddress() + " (member " + e.previous() + ")");
          }
        });
      }
    });
    Nodes.deploy(node.vertx(), directory);
    if (directory.current().active().isEmpty()) {
      throw new NodeFailure("joined no parl master through " + info.hazelcast() + ": the master at " + info.address()
          + " may have just stopped");
    }
    return directory;
  }
}
