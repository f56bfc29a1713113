package org.parl.node;

import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.parl.cluster.Addresses;
import org.parl.cluster.ClusterInfo;
import org.parl.cluster.ClusterName;
import org.parl.cluster.ClusterNode;
import org.parl.cluster.ClusterType;
import org.parl.limits.LimitSettings;
import org.parl.master.GatewayVerticle;
import org.parl.master.JobCenterVerticle;
import org.parl.monitor.MonitorVerticle;
import org.parl.security.ClusterToken;
import org.parl.tls.ClusterKeys;
import org.parl.worker.WorkerSettings;
import org.parl.worker.WorkerVerticle;

/**
 * A master running in this process: its Hazelcast member, the JobCenter, the gateway, the local
 * worker (if any) and the web monitor. {@code parl master} runs one in the foreground;
 * {@code parl demo} runs two side by side.
 */
public final class MasterNode implements AutoCloseable {

  /**
   * What to start; {@code local} is null for a master without a local worker.
   *
   * @param encryptData whether job data ports speak TLS ({@code --encrypt-data})
   */
  public record Spec(String host, int port, Integer monitorPort, ClusterType type, WorkerSettings local,
              int maxGpusPerActor, Path hazelcastConfig, boolean encryptData) {

    /** A master whose cluster does not encrypt the data path. */
    public Spec(String host, int port, Integer monitorPort, ClusterType type, WorkerSettings local,
        int maxGpusPerActor, Path hazelcastConfig) {
      this(host, port, monitorPort, type, local, maxGpusPerActor, hazelcastConfig, false);
    }
  }

  public final ClusterNode node;
  public final ClusterInfo info;
  public final WorkerSettings local;
  private final Path clusterFile;
  private final MonitorVerticle monitor;

  private MasterNode(ClusterNode node, ClusterInfo info, WorkerSettings local, Path clusterFile, MonitorVerticle monitor) {
    this.node = node;
    this.info = info;
    this.local = local;
    this.clusterFile = clusterFile;
    this.monitor = monitor;
  }

  /**
   * Starts every part. Servers bind their ports themselves (port 0, or the monitor's default
   * port when taken, become free ports), so two masters starting side by side cannot race for one.
   *
   * @param token the cluster's token (SPEC §9); the cluster's TLS keys are derived from it here, once
   * @throws NodeFailure when a port is taken or a part cannot start
   */
  public static MasterNode start(Spec s, ClusterToken token) {
    ClusterKeys keys = ClusterKeys.derive(token);
    LimitSettings limits = LimitSettings.load();
    if (s.port() != 0) {
      Ports.claim(s.host(), s.port(), "--port");
    }
    if (s.monitorPort() != null && s.monitorPort() != 0) {
      Ports.claim(s.host(), s.monitorPort(), "--monitor-port");
    }
    String clusterName = ClusterName.derive(token, ClusterName.newInstanceId());
    ClusterNode node = Nodes.start(Nodes.settings(s.hazelcastConfig(), clusterName, s.host(), null, "master", false), s.host(),
        keys);
    AtomicReference<ClusterInfo> info = new AtomicReference<>();
    MonitorVerticle monitor;
    try {
      Vertx vertx = node.vertx();
      Nodes.deploy(vertx, new JobCenterVerticle(node, s.type(), s.maxGpusPerActor(), limits.maxWaitingPerClient()));
      GatewayVerticle gateway = new GatewayVerticle(info::get, node.nodeId(), s.host(), s.port(), token, keys, limits);
      Nodes.deploy(vertx, gateway);
      int webPort = s.monitorPort() != null ? s.monitorPort() : gateway.port() + 100;
      monitor = new MonitorVerticle(node, s.host(), webPort, s.monitorPort() == null, token, keys);
      Nodes.deploy(vertx, monitor);
      info.set(new ClusterInfo(s.host() + ":" + gateway.port(), clusterName, node.memberAddress(), s.type(),
          s.maxGpusPerActor(), monitor.url(), s.encryptData(), node.memberId()));
      Nodes.await(vertx.sharedData().<String, String>getClusterWideMap(Addresses.CLUSTER_MAP)
          .compose(m -> m.put(Addresses.CLUSTER_KEY, info.get().toJson().encode())), "publishing the cluster's address");
      if (s.local() != null) {
        Nodes.deploy(vertx, new WorkerVerticle(node, s.local()));
      }
    } catch (NodeFailure e) {
      Nodes.close(node);
      throw e;
    }
    return new MasterNode(node, info.get(), s.local(), ClusterFiles.write(info.get()), monitor);
  }

  /** A fresh one-time login link to the monitor (SPEC §6): {@code https://HOST:PORT/login?code=...}. */
  public String monitorLoginLink() {
    return monitor.loginLink();
  }

  /** The SHA-256 fingerprint of the certificate the monitor presents, for users to check. */
  public String monitorFingerprint() {
    return monitor.fingerprint();
  }

  /** The line {@code parl master} prints when ready (tests and detached starts wait for it). */
  public String readyLine() {
    return "parl master ready: address " + info.address() + ", " + info.type().name() + " cluster"
        + (local == null ? ", no local worker" : ", local worker " + local.workerId() + " lending " + Nodes.describe(local));
  }

  public void forgetClusterFile() {
    ClusterFiles.remove(clusterFile);
  }

  @Override
  public void close() {
    forgetClusterFile();
    Nodes.close(node);
  }
}
