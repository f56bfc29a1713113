package org.parl.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.parl.cluster.ClusterInfo;
import org.parl.cluster.ClusterNode;
import org.parl.control.ControlReply.Snapshot;
import org.parl.internal.net.HostPort;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.wire.gateway.WorkerState;
import org.parl.node.BlockingGateway;
import org.parl.node.NodeFailure;
import org.parl.node.Nodes;
import org.parl.tls.ClusterKeys;

/**
 * A process of {@link SimulatedWorkers} for the scale benchmark: a real cluster member, joined as
 * {@code parl worker} joins (the gateway's hello, then Hazelcast and the event bus with the keys of
 * the cluster token). It reads commands on standard input and answers each with one line:
 * {@code add N} registers N more workers ({@code parl scale workers: registered TOTAL}),
 * {@code check} reports the JobCenter's state ({@code parl scale check: workers=W jobs=J waiting=Q
 * cpusUsed=C invariant=TEXT}). It ends when its input closes.
 *
 * <p>Arguments: {@code ADDRESS TOKEN_FILE PREFIX CPUS_EACH}.
 */
public final class ScaleWorkersMain {

  private static final long STEP_TIMEOUT_S = 120;
  private static final int JOIN_ATTEMPTS = 3;

  private ScaleWorkersMain() {}

  public static void main(String[] args) throws Exception {
    HostPort master = HostPort.parse(args[0]);
    ClusterToken token = ClusterToken.find(Path.of(args[1]));
    ClusterInfo info = join(master, token);
    String host = master.host();
    ClusterNode node = Nodes.start(Nodes.settings(null, info.clusterName(), host, info.hazelcast(), "worker", false), host,
        ClusterKeys.derive(token));
    SimulatedWorkers workers = new SimulatedWorkers(node.nodeId(), args[2], Integer.parseInt(args[3]));
    Nodes.deploy(node.vertx(), workers);
    System.out.println("parl scale workers: joined as " + node.nodeId());
    try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String[] command = line.trim().split("\\s+");
        if (command[0].equals("add")) {
          int total = workers.add(Integer.parseInt(command[1])).await(STEP_TIMEOUT_S, TimeUnit.SECONDS);
          System.out.println("parl scale workers: registered " + total);
        } else if (command[0].equals("check")) {
          System.out.println("parl scale check: " + describe(workers.snapshot().await(STEP_TIMEOUT_S, TimeUnit.SECONDS)));
        }
      }
    } finally {
      Nodes.close(node);
    }
  }

  /** The gateway's hello, tried again on a host so busy that the TLS and token handshake ran out of time. */
  private static ClusterInfo join(HostPort master, ClusterToken token) {
    for (int attempt = 1; ; attempt++) {
      try {
        return BlockingGateway.joinAsWorker(master, token);
      } catch (NodeFailure e) {
        if (attempt == JOIN_ATTEMPTS) {
          throw e;
        }
        System.out.println("parl scale workers: hello failed (" + e.getMessage() + "); trying again");
      }
    }
  }

  private static String describe(Snapshot s) {
    int used = s.workers().stream().map(WorkerState::cpus).mapToInt(WorkerState.Cpus::used).sum();
    return "workers=" + s.workers().size() + " jobs=" + s.jobs().size() + " waiting=" + s.waiting() + " cpusUsed=" + used
        + " invariant=" + s.invariant();
  }
}
