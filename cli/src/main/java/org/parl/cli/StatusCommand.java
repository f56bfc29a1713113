package org.parl.cli;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.parl.AuthenticationException;
import org.parl.net.HostPort;
import org.parl.node.BlockingGateway;
import org.parl.node.ClusterFiles;
import org.parl.node.NodeFailure;
import org.parl.security.ClusterToken;
import org.parl.wire.gateway.GatewayReply;
import org.parl.wire.gateway.MasterState;
import org.parl.wire.gateway.WorkerState;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code parl status}: one line per cluster known on this host, or for the one given. */
@Command(name = "status", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = "Show the clusters whose master runs on this host (or the one at --address).")
public final class StatusCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--address", paramLabel = "HOST:PORT", description = "Ask only this master.")
  String address;

  @Mixin
  TokenOption tokenOption;

  @Override
  public Integer call() {
    List<HostPort> targets = new ArrayList<>();
    if (address != null) {
      try {
        targets.add(HostPort.parse(address));
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--" + e.getMessage());
      }
    } else {
      for (JsonObject c : ClusterFiles.live()) {
        targets.add(HostPort.parse(c.getString("address")));
      }
    }
    if (targets.isEmpty()) {
      throw new NodeFailure("no parl cluster runs on this host (start one with 'bin/parl master')");
    }
    ClusterToken token = tokenOption.find();
    int reached = 0;
    AuthenticationException refused = null;
    for (HostPort t : targets) {
      try {
        System.out.println(describe(t, BlockingGateway.status(t, token)));
        reached++;
      } catch (NodeFailure e) {
        System.out.println(t + "  unreachable: " + e.getMessage());
      } catch (AuthenticationException e) {
        if (targets.size() == 1) {
          throw e; // one sentence, exit 1
        }
        refused = e;
        System.out.println(t + "  refused: the cluster token from " + token.source() + " is not this cluster's");
      }
    }
    if (reached == 0 && refused != null) {
      throw refused;
    }
    if (reached == 0) {
      throw new NodeFailure(address != null ? "no parl master answers at " + address
          : "no parl cluster runs on this host (start one with 'bin/parl master')");
    }
    return 0;
  }

  /** The summary line of a cluster, then one line per master (SPEC §10), the active one first. */
  static String describe(HostPort t, GatewayReply.Status s) {
    int cpusUsed = 0;
    int cpusVacant = 0;
    int gpusUsed = 0;
    int gpusVacant = 0;
    for (WorkerState w : s.workers()) {
      cpusUsed += w.cpus().used();
      cpusVacant += w.cpus().vacant();
      gpusUsed += w.usedGpus().size();
      gpusVacant += w.vacantGpus().size();
    }
    StringBuilder out = new StringBuilder(String.format(
        "%s  %s cluster  %d worker(s)  CPUs %d used / %d vacant  GPUs %d used / %d vacant  %d client(s)  monitor %s",
        t, s.cluster().clusterType().toUpperCase(Locale.ROOT), s.workers().size(), cpusUsed, cpusVacant, gpusUsed,
        gpusVacant, s.clients(), s.cluster().monitorUrl().isEmpty() ? "-" : s.cluster().monitorUrl()));
    for (MasterState m : s.masters()) {
      out.append(String.format("%n  master %s  %s  monitor %s  (member %s)", m.address(), m.active() ? "active " : "standby",
          m.monitorUrl().isEmpty() ? "-" : m.monitorUrl(), m.memberId()));
    }
    return out.toString();
  }
}
