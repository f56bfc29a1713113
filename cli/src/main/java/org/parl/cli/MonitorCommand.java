package org.parl.cli;

import java.util.concurrent.Callable;
import org.parl.cluster.ClusterInfo;
import org.parl.cluster.ClusterNode;
import org.parl.ha.MasterDirectory;
import org.parl.internal.net.HostPort;
import org.parl.internal.security.ClusterToken;
import org.parl.monitor.MonitorCertificate;
import org.parl.monitor.MonitorVerticle;
import org.parl.node.BlockingGateway;
import org.parl.node.Nodes;
import org.parl.node.Ports;
import org.parl.tls.ClusterKeys;
import org.parl.tls.ServedNames;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code parl monitor}: a stand-alone web monitor, a Hazelcast lite member (it holds no cluster
 * data) that joins through the master's gateway and serves the same pages and API as the
 * master's own monitor.
 */
@Command(name = "monitor", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = "Serve the web monitor of a running cluster from this host.")
public final class MonitorCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--address", required = true, paramLabel = "HOST:PORT", description = "The master's address.")
  String address;

  @Option(names = "--port", paramLabel = "PORT",
      description = "Port of the web monitor (default: the master's port + 101, or a free port).")
  Integer port;

  @Mixin
  HostOption host;

  @Mixin
  HazelcastConfigOption hazelcastConfig;

  @Mixin
  TokenOption tokenOption;

  @Mixin
  MonitorTlsOptions monitorTls;

  @Override
  public Integer call() {
    HostPort master;
    try {
      master = HostPort.parse(address);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--" + e.getMessage());
    }
    if (port != null && (port < 0 || port > 65535)) {
      throw new ParameterException(spec.commandLine(), "--port must be between 0 and 65535, not " + port);
    }
    String bindHost = host.reachableFrom(master);
    ClusterToken token = tokenOption.find();
    MonitorCertificate own = monitorTls.read();
    ClusterInfo info = BlockingGateway.joinAsMonitor(master, token);
    if (port != null) {
      Ports.claim(bindHost, port, "--port");
    }
    int webPort = port != null ? port : master.port() + 101;
    ClusterKeys keys = ClusterKeys.derive(token);
    ClusterNode node = Nodes.start(
        Nodes.settings(hazelcastConfig.file, info.clusterName(), bindHost, info.hazelcast(), "monitor", true), bindHost, keys);
    Foreground foreground = new Foreground(node, "parl monitor", () -> {});
    MasterDirectory masters = MasterWatch.follow(node, token, info, who -> {
      System.err.println("parl: " + who + " left the cluster; the monitor stops");
      foreground.stop(1);
    });
    MonitorCertificate shown = own != null ? own : MonitorCertificate.issued(keys.authority().issue(ServedNames.of(bindHost)),
        keys.authority());
    MonitorVerticle monitor = new MonitorVerticle(node, bindHost, webPort, port == null, token, shown, masters::current);
    Nodes.deploy(node.vertx(), monitor);
    System.out.println("parl monitor ready: " + monitor.url() + " (" + info.type().label() + " cluster at " + master + ")");
    System.out.println("monitor: " + monitor.loginLink() + " (one-time login link)");
    System.out.println("monitor certificate: " + monitor.certificate());
    return foreground.await();
  }
}
