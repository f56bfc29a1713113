package org.parl.node;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.parl.cluster.Addresses;
import org.parl.cluster.ClusterInfo;
import org.parl.cluster.ClusterName;
import org.parl.cluster.ClusterNode;
import org.parl.control.ClusterType;
import org.parl.ha.MasterDirectory;
import org.parl.ha.MasterRecord;
import org.parl.ha.Masters;
import org.parl.internal.security.ClusterToken;
import org.parl.limits.LimitSettings;
import org.parl.master.ActiveRole;
import org.parl.master.GatewayVerticle;
import org.parl.master.JobCenterVerticle;
import org.parl.monitor.MonitorCertificate;
import org.parl.monitor.MonitorVerticle;
import org.parl.tls.ClusterKeys;
import org.parl.tls.NodeCertificate;
import org.parl.tls.ServedNames;
import org.parl.worker.WorkerSettings;
import org.parl.worker.WorkerVerticle;

/**
 * A master running in this process: its Hazelcast member, the gateway, the local worker (if any),
 * the web monitor and, while it is the active master (docs/contract.md §10), the JobCenter. {@code parl master}
 * runs one in the foreground; {@code parl demo} runs two side by side.
 */
public final class MasterNode implements AutoCloseable {

  /**
   * What to start; {@code local} is null for a master without a local worker.
   *
   * @param encryptData whether job data ports speak TLS ({@code --encrypt-data})
   * @param standbyOf the cluster a standby joins (what another master's gateway said), or null to
   *     start a new cluster
   * @param monitorCertificate the operator's certificate for the monitor ({@code --tls-cert}), or
   *     null for one the cluster's CA issues
   * @param allowPreemption whether creates may preempt actors of lower priority ({@code --allow-preemption})
   */
  public record Spec(String host, int port, Integer monitorPort, ClusterType type, WorkerSettings local,
              int maxGpusPerActor, Path hazelcastConfig, boolean encryptData, ClusterInfo standbyOf,
              MonitorCertificate monitorCertificate, boolean allowPreemption) {

    /** The first master of a new cluster. */
    public Spec(String host, int port, Integer monitorPort, ClusterType type, WorkerSettings local,
        int maxGpusPerActor, Path hazelcastConfig, boolean encryptData) {
      this(host, port, monitorPort, type, local, maxGpusPerActor, hazelcastConfig, encryptData, null, null, false);
    }

    /** A master whose cluster does not encrypt the data path. */
    public Spec(String host, int port, Integer monitorPort, ClusterType type, WorkerSettings local,
        int maxGpusPerActor, Path hazelcastConfig) {
      this(host, port, monitorPort, type, local, maxGpusPerActor, hazelcastConfig, false, null, null, false);
    }

    /** A standby joining the cluster described by {@code joined}: its type and settings are the cluster's. */
    public static Spec standby(String host, int port, Integer monitorPort, WorkerSettings local, Path hazelcastConfig,
        ClusterInfo joined) {
      return new Spec(host, port, monitorPort, joined.type(), local, joined.maxGpusPerActor(), hazelcastConfig,
          joined.encryptData(), joined, null, joined.allowPreemption());
    }

    /** The same, with the operator's certificate for the monitor (null: one the cluster's CA issues). */
    public Spec withMonitorCertificate(MonitorCertificate certificate) {
      return new Spec(host, port, monitorPort, type, local, maxGpusPerActor, hazelcastConfig, encryptData, standbyOf,
          certificate, allowPreemption);
    }

    /** The same, with creates allowed to preempt actors of lower priority or not. */
    public Spec withAllowPreemption(boolean allow) {
      return new Spec(host, port, monitorPort, type, local, maxGpusPerActor, hazelcastConfig, encryptData, standbyOf,
          monitorCertificate, allow);
    }
  }

  private static final long ELECTION_TIMEOUT_S = 30;
  /** A stopping local worker's goodbye and its jobs' ends are given this long before the node closes anyway. */
  private static final long LOCAL_WORKER_STOP_S = 10;

  public final ClusterNode node;
  public final ClusterInfo info;
  public final WorkerSettings local;
  private final Path clusterFile;
  private final MonitorVerticle monitor;
  private final GatewayVerticle gateway;
  private final MasterDirectory directory;
  /** The local worker's deployment, or null without one. */
  private final String localDeployment;

  private MasterNode(ClusterNode node, ClusterInfo info, WorkerSettings local, Path clusterFile, MonitorVerticle monitor,
      GatewayVerticle gateway, MasterDirectory directory, String localDeployment) {
    this.node = node;
    this.info = info;
    this.local = local;
    this.clusterFile = clusterFile;
    this.monitor = monitor;
    this.gateway = gateway;
    this.directory = directory;
    this.localDeployment = localDeployment;
  }

  /**
   * Starts every part. Servers bind their ports themselves (port 0, or the monitor's default
   * port when taken, become free ports), so two masters starting side by side cannot race for one.
   * The first master of a cluster returns once it is active; a standby once it is known as one.
   *
   * @param token the cluster's token (docs/contract.md §9); the cluster's TLS keys are derived from it here, once
   * @param demoted told why, if this master must stop because another one was elected (see {@link ActiveRole})
   * @throws NodeFailure when a port is taken, a part cannot start, or a standby finds no active master
   */
  public static MasterNode start(Spec s, ClusterToken token, Consumer<String> demoted) {
    ClusterKeys keys = ClusterKeys.derive(token);
    LimitSettings limits = LimitSettings.load();
    if (s.port() != 0) {
      Ports.claim(s.host(), s.port(), "--port");
    }
    if (s.monitorPort() != null && s.monitorPort() != 0) {
      Ports.claim(s.host(), s.monitorPort(), "--monitor-port");
    }
    ClusterInfo joined = s.standbyOf();
    String clusterName = joined != null ? joined.clusterName() : ClusterName.derive(token, ClusterName.newInstanceId());
    ClusterNode node = Nodes.start(Nodes.settings(s.hazelcastConfig(), clusterName, s.host(),
        joined != null ? joined.hazelcast() : null, "master", false), s.host(), keys);
    AtomicReference<ClusterInfo> info = new AtomicReference<>();
    MonitorVerticle monitor;
    GatewayVerticle gateway;
    String localDeployment = null;
    MasterDirectory directory = new MasterDirectory(node, token);
    try {
      Vertx vertx = node.vertx();
      Nodes.deploy(vertx, directory);
      if (joined != null && directory.current().active().isEmpty()) {
        throw new NodeFailure("the cluster joined through " + joined.address() + " has no active master any more: "
            + "start a master without --standby");
      }
      NodeCertificate served = keys.authority().issue(ServedNames.of(s.host()));
      gateway = new GatewayVerticle(info::get, node, directory::current, s.host(), s.port(), token, served, limits);
      Nodes.deploy(vertx, gateway);
      int webPort = s.monitorPort() != null ? s.monitorPort() : gateway.port() + 100;
      MonitorCertificate shown = s.monitorCertificate() != null ? s.monitorCertificate()
          : MonitorCertificate.issued(served, keys.authority());
      monitor = new MonitorVerticle(node, s.host(), webPort, s.monitorPort() == null, token, shown, directory::current);
      Nodes.deploy(vertx, monitor);
      info.set(new ClusterInfo(s.host() + ":" + gateway.port(), clusterName, node.memberAddress(), s.type(),
          s.maxGpusPerActor(), monitor.url(), s.encryptData(), node.memberId(), s.allowPreemption()));
      if (joined == null) {
        Nodes.await(vertx.sharedData().<String, String>getClusterWideMap(Addresses.CLUSTER_MAP)
            .compose(m -> m.put(Addresses.CLUSTER_KEY, clusterRecord(node, info.get()))), "publishing the cluster's address");
      }
      ActiveRole role = new ActiveRole(node.memberId(), directory, () -> new JobCenterVerticle(node, s.type(),
          s.maxGpusPerActor(), limits.maxWaitingPerClient(), s.allowPreemption(), directory::current), demoted);
      Nodes.deploy(vertx, role);
      if (joined != null) { // a standby that takes over describes the cluster from then on (the map entry may be lost)
        role.active().onSuccess(v -> vertx.sharedData().<String, String>getClusterWideMap(Addresses.CLUSTER_MAP)
            .compose(m -> m.put(Addresses.CLUSTER_KEY, clusterRecord(node, info.get()))));
      }
      Masters view = Nodes.await(directory.announce(new MasterRecord(node.memberId(), info.get().address(), monitor.url())),
          "announcing this master");
      if (joined == null || view.isActive(node.memberId())) {
        await(role.active(), "becoming the active master");
      }
      if (s.local() != null) {
        localDeployment = Nodes.await(vertx.deployVerticle(new WorkerVerticle(node, s.local(), directory::current)),
            "WorkerVerticle");
      }
    } catch (NodeFailure e) {
      Nodes.close(node);
      throw e;
    }
    return new MasterNode(node, info.get(), s.local(), ClusterFiles.write(info.get()), monitor, gateway, directory,
        localDeployment);
  }

  /** {@link #start(Spec, ClusterToken, Consumer)} for a master that is never displaced (the demo's). */
  public static MasterNode start(Spec s, ClusterToken token) {
    return start(s, token, why -> { });
  }

  /** The cluster's description as stored in the cluster map, signed: workers act on its {@code encryptData}. */
  private static String clusterRecord(ClusterNode node, ClusterInfo info) {
    return node.records().sign(Addresses.CLUSTER_MAP, Addresses.CLUSTER_KEY, info.toJson().encode());
  }

  private static void await(Future<Void> step, String what) {
    try {
      step.await(ELECTION_TIMEOUT_S, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new NodeFailure(what + " did not finish within " + ELECTION_TIMEOUT_S + " s");
    } catch (Exception e) {
      throw new NodeFailure(what + " failed: " + e.getMessage());
    }
  }

  /** Whether this master is the active one now. */
  public boolean active() {
    return directory.current().isActive(node.memberId());
  }
  /** A fresh one-time login link to the monitor (docs/contract.md §6): {@code https://HOST:PORT/login?code=...}. */
  public String monitorLoginLink() {
    return monitor.loginLink();
  }


  /** The line {@code parl master} prints when ready (tests and detached starts wait for it). */
  public String readyLine() {
    String role = active() ? "active master" : "standby of the active master at "
        + directory.current().active().map(MasterRecord::address).orElse("?");
    return "parl master ready: address " + info.address() + ", " + info.type().name() + " cluster"
        + (local == null ? ", no local worker" : ", local worker " + local.workerId() + " lending " + Nodes.describe(local))
        + "; " + role;
  }

  public void forgetClusterFile() {
    ClusterFiles.remove(clusterFile);
  }

  /**
   * Prepares this master to stop: its cluster file goes, and the client connections its gateway
   * closes do not stop their jobs (the clients resume at another master, docs/contract.md §10).
   */
  public void handOver() {
    forgetClusterFile();
    gateway.handOver();
    stopLocalWorker();
  }

  /**
   * Stops the local worker first, while this master's JobCenter still serves: its goodbye is heard (here,
   * or at the active master) before the node leaves the cluster, instead of a member that vanished.
   */
  private void stopLocalWorker() {
    if (localDeployment == null) {
      return;
    }
    try {
      node.vertx().undeploy(localDeployment).await(LOCAL_WORKER_STOP_S, TimeUnit.SECONDS);
    } catch (TimeoutException | RuntimeException e) {
      // the node's close stops what is left of it
    }
  }

  @Override
  public void close() {
    handOver();
    Nodes.close(node);
  }
}
