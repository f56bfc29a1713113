package org.parl.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.UUID;
import java.util.function.BiConsumer;
import org.parl.control.ControlCodec;

/**
 * A clustered Vert.x instance on Hazelcast: what a master, a worker or a monitor process runs.
 * Clients and job processes are not members (see DESIGN-NOTES: they would pay a join per start).
 */
public final class ClusterNode {

  private final Vertx vertx;
  private final HazelcastClusterManager manager;

  private ClusterNode(Vertx vertx, HazelcastClusterManager manager) {
    this.vertx = vertx;
    this.manager = manager;
  }

  /**
   * Starts a node, its event bus ready for control messages ({@link ControlCodec}); the future
   * fails if Hazelcast cannot bind or form the cluster.
   */
  public static Future<ClusterNode> start(Config hazelcast, String host) {
    // while Hazelcast starts, so that the first control message on an event loop finds the codec ready
    Thread warmUp = new Thread(ControlCodec::warmUp, "parl-codec-warm-up");
    warmUp.setDaemon(true);
    warmUp.start();
    HazelcastClusterManager manager = new HazelcastClusterManager(hazelcast);
    VertxOptions options = new VertxOptions()
        .setEventBusOptions(new EventBusOptions().setHost(host).setPort(0).setClusterPublicHost(host));
    return Vertx.builder()
        .with(options)
        .withClusterManager(manager)
        .buildClustered()
        .map(v -> {
          ControlCodec.register(v.eventBus());
          return new ClusterNode(v, manager);
        });
  }

  /** A cluster name nobody else uses, so that clusters sharing a host never merge. */
  public static String newClusterName() {
    return "parl-" + UUID.randomUUID().toString().substring(0, 13);
  }

  public Vertx vertx() {
    return vertx;
  }

  public String nodeId() {
    return manager.getNodeId();
  }

  public HazelcastInstance hazelcast() {
    return manager.getHazelcastInstance();
  }

  /** {@code host:port} that other members join through. */
  public String memberAddress() {
    var a = hazelcast().getCluster().getLocalMember().getAddress();
    return a.getHost() + ":" + a.getPort();
  }

  /**
   * Calls {@code handler(nodeId, role)} on Hazelcast's thread whenever a member leaves or dies;
   * callers hop onto their own context before touching state.
   */
  public void onMemberRemoved(BiConsumer<String, String> handler) {
    hazelcast().getCluster().addMembershipListener(new MembershipListener() {
      @Override
      public void memberAdded(MembershipEvent event) {}

      @Override
      public void memberRemoved(MembershipEvent event) {
        Member m = event.getMember();
        handler.accept(m.getAttribute(Addresses.NODE_ID_ATTRIBUTE), m.getAttribute(Addresses.ROLE_ATTRIBUTE));
      }
    });
  }

  /** True while a member with the given role is part of the cluster. */
  public boolean hasMember(String role) {
    for (Member m : hazelcast().getCluster().getMembers()) {
      if (role.equals(m.getAttribute(Addresses.ROLE_ATTRIBUTE))) {
        return true;
      }
    }
    return false;
  }

  public Future<Void> close() {
    return vertx.close();
  }
}
