package org.parl.cli;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.parl.AuthenticationException;
import org.parl.internal.net.HostPort;
import org.parl.internal.resources.GpuAmount;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.wire.gateway.GatewayReply;
import org.parl.internal.wire.gateway.MasterState;
import org.parl.internal.wire.gateway.WaitingCreate;
import org.parl.internal.wire.gateway.WorkerState;
import org.parl.node.BlockingGateway;
import org.parl.node.ClusterFiles;
import org.parl.node.NodeFailure;
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

  @Option(names = "--waiting", description = "Also list the creates waiting for resources: client, program, age, "
      + "what each asks and why it waits.")
  boolean waiting;

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
      throw new NodeFailure("no parl cluster runs on this host under PARL_HOME " + org.parl.node.ParlHome.root()
          + " (start one with 'bin/parl master'; for a cluster started elsewhere pass --address HOST:PORT "
          + "or set PARL_HOME to the folder it was started under)");
    }
    ClusterToken token = tokenOption.find();
    int reached = 0;
    AuthenticationException refused = null;
    for (HostPort t : targets) {
      try {
        GatewayReply.Status status = BlockingGateway.status(t, token);
        System.out.println(describe(t, status));
        if (waiting) {
          System.out.println(waitingLines(status.waitingCreates()));
        }
        reached++;
      } catch (NodeFailure e) {
        if (targets.size() == 1) {
          throw e; // one sentence, exit 1
        }
        System.out.println(t + "  unreachable: " + e.getMessage());
      } catch (AuthenticationException e) {
        if (targets.size() == 1) {
          throw e;
        }
        refused = e;
        System.out.println(t + "  refused: the cluster token from " + token.source() + " is not this cluster's");
      }
    }
    if (reached == 0 && refused != null) {
      throw refused;
    }
    if (reached == 0) { // every master of this host's cluster files is gone, each said above
      throw new NodeFailure("no parl cluster runs on this host under PARL_HOME " + org.parl.node.ParlHome.root()
          + " (start one with 'bin/parl master'; for a cluster started elsewhere pass --address HOST:PORT "
          + "or set PARL_HOME to the folder it was started under)");
    }
    return 0;
  }

  /** The summary line of a cluster, then one line per master (docs/contract.md §10), the active one first. */
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
    for (WorkerState w : s.workers()) {
      gpuLine(w).ifPresent(line -> out.append(String.format("%n  %s", line)));
    }
    for (MasterState m : s.masters()) {
      out.append(String.format("%n  master %s  %s  monitor %s  (member %s)", m.address(), m.active() ? "active " : "standby",
          m.monitorUrl().isEmpty() ? "-" : m.monitorUrl(), m.memberId()));
    }
    return out.toString();
  }

  /**
   * A worker's GPUs, one by one: {@code worker w-1: GPU 0 0.75 used, 4096 of 81559 MiB budgeted, GPU 1 vacant,
   * GPU 2 drained}; empty for a worker without GPUs.
   */
  static java.util.Optional<String> gpuLine(WorkerState w) {
    if (w.gpuShares().isEmpty()) {
      return java.util.Optional.empty();
    }
    List<String> parts = new ArrayList<>();
    for (WorkerState.GpuShare g : w.gpuShares()) {
      String state = g.quarantined() ? "quarantined" + (g.fault() == null ? "" : " (" + g.fault() + ")")
          : g.drained() ? "drained" : g.shareUsed() == 0 && g.memoryBudgetMb() == 0 ? "vacant"
          : g.shareUsed() == GpuAmount.UNITS_PER_GPU ? "used" : GpuAmount.shareText(g.shareUsed()) + " used";
      if (g.memoryBudgetMb() > 0) {
        state += ", " + g.memoryBudgetMb() + " of " + g.memoryMb() + " MiB budgeted";
      }
      parts.add("GPU " + g.index() + " " + state);
    }
    return java.util.Optional.of("worker " + w.id() + (w.drained() ? " (drained)" : "") + ": " + String.join(", ", parts));
  }

  /** One line per waiting create: its place, client, program, age, what it asks and why it waits. */
  static String waitingLines(List<WaitingCreate> waiting) {
    if (waiting.isEmpty()) {
      return "  no create is waiting for resources";
    }
    StringBuilder out = new StringBuilder(String.format("  %d create(s) waiting:", waiting.size()));
    for (WaitingCreate w : waiting) {
      out.append(String.format("%n  #%d  client %s (%s)  %s  waiting %.1f s  asks %s%n      why: %s", w.ahead() + 1,
          w.clientId(), w.program(), w.actorClass(), w.ageMs() / 1000.0, w.asks(), w.reason()));
      for (String d : w.details()) {
        out.append(String.format("%n        %s", d));
      }
    }
    return out.toString();
  }
}
