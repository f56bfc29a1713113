package org.parl.cli;

import io.vertx.core.Vertx;
import java.nio.file.Path;
import org.parl.cluster.ClusterInfo;
import org.parl.cluster.ClusterNode;
import org.parl.cluster.ClusterType;
import org.parl.cluster.HazelcastSettings;
import org.parl.master.JobCenterVerticle;
import org.parl.master.MasterVerticle;
import org.parl.monitor.MonitorVerticle;
import org.parl.worker.WorkerSettings;
import org.parl.worker.WorkerVerticle;

/**
 * A master running in this process: its Hazelcast member, the JobCenter, the gateway, the local
 * worker (if any) and the web monitor. {@code parl master} runs one in the foreground;
 * {@code parl demo} runs two side by side.
 */
final class MasterNode implements AutoCloseable {

  /** What to start; {@code local} is null for a master without a local worker. */
  record Spec(String host, int port, Integer monitorPort, ClusterType type, WorkerSettings local,
              int maxGpusPerActor, Path hazelcastConfig) {}

  final ClusterNode node;
  final ClusterInfo info;
  final WorkerSettings local;
  private final Path clusterFile;

  private MasterNode(ClusterNode node, ClusterInfo info, WorkerSettings local, Path clusterFile) {
    this.node = node;
    this.info = info;
    this.local = local;
    this.clusterFile = clusterFile;
  }

  /** @throws CliFailure when a port is taken or a part cannot start */
  static MasterNode start(Spec s) {
    int gatewayPort = Ports.claim(s.host(), s.port(), "--port");
    int webPort = s.monitorPort() != null ? Ports.claim(s.host(), s.monitorPort(), "--monitor-port")
        : Ports.preferOrAny(s.host(), gatewayPort + 100);
    String clusterName = ClusterNode.newClusterName(gatewayPort);
    ClusterNode node = Nodes.start(HazelcastSettings.build(s.hazelcastConfig(), clusterName, s.host(), null, "master", false), s.host());
    ClusterInfo info = new ClusterInfo(s.host() + ":" + gatewayPort, clusterName, node.memberAddress(), s.type(),
        s.maxGpusPerActor(), "http://" + s.host() + ":" + webPort);
    Path clusterFile = ClusterFiles.write(info);
    MasterNode master = new MasterNode(node, info, s.local(), clusterFile);
    try {
      Vertx vertx = node.vertx();
      Nodes.deploy(vertx, new JobCenterVerticle(node, s.type(), s.maxGpusPerActor()));
      Nodes.deploy(vertx, new MasterVerticle(info, s.host(), gatewayPort));
      if (s.local() != null) {
        Nodes.deploy(vertx, new WorkerVerticle(node, s.local()));
      }
      Nodes.deploy(vertx, new MonitorVerticle(node, s.host(), webPort));
    } catch (CliFailure e) {
      master.close();
      throw e;
    }
    return master;
  }

  /** The line {@code parl master} prints when ready (tests and detached starts wait for it). */
  String readyLine() {
    return "parl master ready: address " + info.address() + ", " + info.type().name() + " cluster"
        + (local == null ? ", no local worker" : ", local worker " + local.workerId() + " lending " + Nodes.describe(local));
  }

  void forgetClusterFile() {
    ClusterFiles.remove(clusterFile);
  }

  @Override
  public void close() {
    forgetClusterFile();
    Nodes.close(node);
  }
}
