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
import io.vertx.core.http.ClientAuth;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.Optional;
import java.util.function.Consumer;
import org.parl.control.ControlCodec;
import org.parl.internal.security.SignedRecords;
import org.parl.tls.ClusterKeys;
import org.parl.tls.TlsPolicy;

/**
 * A clustered Vert.x instance on Hazelcast: what a master, a worker or a monitor process runs.
 * Clients and job processes are not members (they would pay a cluster join per start).
 *
 * <p>The event bus between nodes is TLS with client authentication required, from the keys
 * derived from the cluster token: a process without the token may join Hazelcast (if it learnt
 * the cluster name) but can neither send nor receive event-bus messages.
 */
public final class ClusterNode {

  private final Vertx vertx;
  private final HazelcastClusterManager manager;

  private final SignedRecords records;

  private ClusterNode(Vertx vertx, HazelcastClusterManager manager, SignedRecords records) {
    this.records = records;
    this.vertx = vertx;
    this.manager = manager;
  }

  /**
   * Starts a node, its event bus ready for control messages ({@link ControlCodec}); the future
   * fails if Hazelcast cannot bind or form the cluster.
   *
   * @param keys the cluster's TLS identity ({@link ClusterKeys#derive}): every node needs the token
   */
  public static Future<ClusterNode> start(Config hazelcast, String host, ClusterKeys keys) {
    // while Hazelcast starts, so that the first control message on an event loop finds the codec ready
    Thread warmUp = new Thread(ControlCodec::warmUp, "parl-codec-warm-up");
    warmUp.setDaemon(true);
    warmUp.start();
    HazelcastClusterManager manager = new HazelcastClusterManager(hazelcast);
    return Vertx.builder()
        .with(new VertxOptions().setEventBusOptions(eventBusOptions(host, keys)))
        .withClusterManager(manager)
        .buildClustered()
        .map(v -> {
          ControlCodec.register(v.eventBus());
          return new ClusterNode(v, manager, keys.records());
        });
  }

  /**
   * The event bus's TCP server and clients: TLS 1.3 both ways with the cluster's one certificate, which
   * is also the only one trusted. EventBusOptions trusts every server by default ({@code trustAll}),
   * which would let a node send to a stranger's consumer: it is turned off. Vert.x 5 builds the bus's
   * client with the hostname verification algorithm {@code ""} itself (EventBusOptions does not
   * expose it): peers are authenticated by that exact certificate, not by a host name.
   */
  static EventBusOptions eventBusOptions(String host, ClusterKeys keys) {
    return new EventBusOptions().setHost(host).setPort(0).setClusterPublicHost(host)
        .setSsl(true)
        .setClientAuth(ClientAuth.REQUIRED)
        .setKeyCertOptions(keys.keyCert())
        .setTrustOptions(keys.trust())
        .setTrustAll(false)
        .setEnabledSecureTransportProtocols(TlsPolicy.PARL_PROTOCOLS);
  }

  /** Signs and checks the records of the cluster maps ({@link SignedRecords}). */
  public SignedRecords records() {
    return records;
  }

  public Vertx vertx() {
    return vertx;
  }

  /** This node's Vert.x node id (what workers register under). */
  public String nodeId() {
    return manager.getNodeId();
  }

  /** This node's Hazelcast member UUID: its identity in the cluster (see {@link MemberLeft}). */
  public String memberId() {
    return hazelcast().getCluster().getLocalMember().getUuid().toString();
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
   * Calls {@code handler} on Hazelcast's thread whenever a member leaves or dies; callers hop onto
   * their own context before touching state.
   */
  public void onMemberRemoved(Consumer<MemberLeft> handler) {
    hazelcast().getCluster().addMembershipListener(new MembershipListener() {
      @Override
      public void memberAdded(MembershipEvent event) {}

      @Override
      public void memberRemoved(MembershipEvent event) {
        Member m = event.getMember();
        handler.accept(new MemberLeft(m.getUuid().toString(), m.getAttribute(Addresses.NODE_ID_ATTRIBUTE)));
      }
    });
  }

  /**
   * The member that announces this Vert.x node id, when exactly one does: node ids are attributes
   * that members set themselves, so a second member announcing the same one makes it ambiguous.
   */
  public Optional<String> memberOfNode(String nodeId) {
    String found = null;
    for (Member m : hazelcast().getCluster().getMembers()) {
      if (nodeId.equals(m.getAttribute(Addresses.NODE_ID_ATTRIBUTE))) {
        if (found != null) {
          return Optional.empty();
        }
        found = m.getUuid().toString();
      }
    }
    return Optional.ofNullable(found);
  }

  public Future<Void> close() {
    return vertx.close();
  }
}
