package org.parl.it;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageCodec;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.parl.cluster.ClusterInfo;
import org.parl.cluster.ClusterNode;
import org.parl.cluster.HazelcastSettings;
import org.parl.control.ControlCodec;
import org.parl.control.ControlMessage;
import org.parl.control.ControlReply;
import org.parl.control.JobCenterRequest.GetSnapshot;
import org.parl.control.Request;
import org.parl.ha.JobCenterCalls;
import org.parl.ha.MasterDirectory;
import org.parl.internal.net.HostPort;
import org.parl.internal.security.ClusterToken;
import org.parl.node.BlockingGateway;
import org.parl.tls.ClusterKeys;

/**
 * The test JVM as a lite member of a cluster under test: it sends event-bus messages to the
 * JobCenter and workers (good and bad ones) and reads the cluster maps, like any other node could.
 *
 * <p>To send bodies that no record would let one build, it replaces its own control codec with
 * one that also writes {@link Garbage} under the codec's name: the receiving node decodes those
 * bytes with its real codec, as it would a hostile peer's.
 */
public final class TestMember implements AutoCloseable {

  /** Bytes sent as the body of a control message, as is. */
  public record Garbage(byte[] wire) {

    /** A JSON text behind the right length prefix. */
    public static Garbage json(String json) {
      byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
      return new Garbage(Buffer.buffer().appendInt(bytes.length).appendBytes(bytes).getBytes());
    }

    @Override
    public String toString() {
      return new String(wire, StandardCharsets.UTF_8).replaceAll("\\p{Cntrl}", "?");
    }
  }

  private final ClusterNode node;
  private final ClusterInfo info;
  /** Which master is active: JobCenter requests go to its JobCenter (docs/contract.md §10). */
  private final MasterDirectory masters;

  private TestMember(ClusterNode node, ClusterInfo info, MasterDirectory masters) {
    this.node = node;
    this.info = info;
    this.masters = masters;
  }

  /**
   * Joins as a legitimate member: it authenticates at the gateway and takes the cluster's event-bus
   * keys from its token.
   *
   * @param token the cluster token ({@link TestCluster#token()})
   */
  public static TestMember join(String masterAddress, String token) throws Exception {
    return join(masterAddress, token, "127.0.0.1");
  }

  /**
   * Joins as {@link #join(String, String)} does, its Hazelcast member and event bus on {@code host}:
   * for a member on another host than the master's (a {@link org.parl.it.hosts.Host}'s address).
   */
  public static TestMember join(String masterAddress, String token, String host) throws Exception {
    ClusterToken clusterToken = ClusterToken.of(token, "TestMember");
    ClusterInfo info = BlockingGateway.joinAsMonitor(HostPort.parse(masterAddress), clusterToken);
    ClusterKeys keys = ClusterKeys.derive(clusterToken);
    ClusterNode node = ClusterNode.start(
        HazelcastSettings.build(null, info.clusterName(), host, info.hazelcast(), "test", true), host, keys)
        .await(60, TimeUnit.SECONDS);
    EventBus bus = node.vertx().eventBus();
    bus.unregisterCodec(ControlCodec.NAME);
    bus.registerCodec(new GarbageCodec());
    MasterDirectory masters = new MasterDirectory(node, clusterToken);
    node.vertx().deployVerticle(masters).await(60, TimeUnit.SECONDS);
    return new TestMember(node, info, masters);
  }

  public ClusterInfo info() {
    return info;
  }

  public ClusterNode node() {
    return node;
  }

  /** Sends a request to the active master's JobCenter (once) and returns its reply. */
  public <R extends ControlReply> Future<R> jobCenter(Request<R> request, long timeoutMs) {
    return JobCenterCalls.request(node.vertx(), masters::current, request, timeoutMs);
  }

  /** Sends any body to an address (with a reply address); {@link Garbage} goes under the control codec. */
  public Future<Object> request(String address, Object body, long timeoutMs) {
    return node.vertx().eventBus().request(address, body, options(body).setSendTimeout(timeoutMs)).map(Message::body);
  }

  /** Sends any body to an address without a reply address. */
  public void send(String address, Object body) {
    node.vertx().eventBus().send(address, body, options(body));
  }

  private static DeliveryOptions options(Object body) {
    DeliveryOptions opts = new DeliveryOptions();
    return body instanceof Garbage ? opts.setCodecName(ControlCodec.NAME) : opts;
  }

  /** The JobCenter's snapshot in its JSON form. */
  public JsonObject snapshot() throws Exception {
    // tried again every 2 s: during a takeover a request may go to the JobCenter that just died
    return json(JobCenterCalls.request(node.vertx(), masters::current, new GetSnapshot(), 10_000, 2_000)
        .await(15, TimeUnit.SECONDS));
  }

  /** A control record in its JSON form. */
  public static JsonObject json(Object record) {
    return ControlCodec.toJson(record);
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

  /** The control codec, plus {@link Garbage} written as is. */
  private static final class GarbageCodec implements MessageCodec<Object, Object> {

    private final ControlCodec real = new ControlCodec();

    @Override
    public void encodeToWire(Buffer buffer, Object body) {
      if (body instanceof Garbage g) {
        buffer.appendBytes(g.wire());
      } else {
        real.encodeToWire(buffer, (ControlMessage) body);
      }
    }

    @Override
    public Object decodeFromWire(int pos, Buffer buffer) {
      return real.decodeFromWire(pos, buffer);
    }

    @Override
    public Object transform(Object body) {
      return body;
    }

    @Override
    public String name() {
      return ControlCodec.NAME;
    }

    @Override
    public byte systemCodecID() {
      return -1;
    }
  }
}
