package org.parl.it;

import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.parl.node.BlockingGateway;
import org.parl.net.HostPort;
import org.parl.cluster.Addresses;
import org.parl.cluster.ClusterInfo;
import org.parl.cluster.ClusterNode;
import org.parl.cluster.HazelcastSettings;

/**
 * The test JVM as a lite member of a cluster under test: it sends event-bus messages to the
 * JobCenter (good and bad ones) and reads the cluster maps, like any other node could.
 */
public final class TestMember implements AutoCloseable {

  private final ClusterNode node;
  private final ClusterInfo info;

  private TestMember(ClusterNode node, ClusterInfo info) {
    this.node = node;
    this.info = info;
  }

  public static TestMember join(String masterAddress) throws Exception {
    ClusterInfo info = ClusterInfo.fromJson(BlockingGateway.hello(HostPort.parse(masterAddress), "monitor"));
    ClusterNode node = ClusterNode.start(
        HazelcastSettings.build(null, info.clusterName(), "127.0.0.1", info.hazelcast(), "test", true), "127.0.0.1")
        .await(60, TimeUnit.SECONDS);
    return new TestMember(node, info);
  }

  public ClusterInfo info() {
    return info;
  }

  public ClusterNode node() {
    return node;
  }

  /** Sends a request to the JobCenter and returns the reply's future. */
  public Future<JsonObject> jobCenter(String op, Object body, long timeoutMs) {
    DeliveryOptions opts = new DeliveryOptions().setSendTimeout(timeoutMs);
    if (op != null) {
      opts.addHeader("op", op);
    }
    return node.vertx().eventBus().<JsonObject>request(Addresses.JOB_CENTER, body, opts).map(Message::body);
  }

  public JsonObject snapshot() throws Exception {
    return jobCenter("snapshot", new JsonObject(), 10_000).await(15, TimeUnit.SECONDS);
  }

  /** A cluster map's entries, decoded. */
  public Map<String, JsonObject> map(String name) throws Exception {
    AsyncMap<String, String> m = node.vertx().sharedData().<String, String>getClusterWideMap(name).await(10, TimeUnit.SECONDS);
    Map<String, String> raw = m.entries().await(10, TimeUnit.SECONDS);
    Map<String, JsonObject> out = new java.util.TreeMap<>();
    raw.forEach((k, v) -> out.put(k, new JsonObject(v)));
    return out;
  }

  @Override
  public void close() throws Exception {
    node.close().await(20, TimeUnit.SECONDS);
  }
}
