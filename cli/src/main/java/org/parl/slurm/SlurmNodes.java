package org.parl.slurm;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.parl.command.TimedCommand;
import org.parl.node.NodeFailure;

/**
 * The nodes of an allocation and their addresses, from Slurm itself: {@code scontrol show hostnames}
 * expands the node list in Slurm's order (the first node is where the batch script runs), and
 * {@code scontrol show node} gives each node's {@code NodeAddr}, which is resolved here.
 */
public final class SlurmNodes {

  /** Deadline of one {@code scontrol} call (it asks the controller). */
  static final Duration DEADLINE = Duration.ofSeconds(30);

  private SlurmNodes() {}

  /**
   * The nodes of {@code nodeList} ({@code n[1-2]}, or one name), in Slurm's order.
   *
   * @throws NodeFailure when {@code scontrol} fails or an address does not resolve
   */
  public static List<SlurmNode> of(String nodeList) {
    List<String> names = scontrol("show", "hostnames", nodeList).lines().map(String::strip)
        .filter(s -> !s.isEmpty()).toList();
    if (names.isEmpty()) {
      throw new NodeFailure("scontrol show hostnames " + nodeList + " names no node");
    }
    Map<String, String> addresses = nodeAddresses(scontrol("show", "node", "--oneliner", nodeList));
    List<SlurmNode> nodes = new ArrayList<>();
    for (String name : names) {
      String addr = addresses.getOrDefault(name, name);
      try {
        nodes.add(new SlurmNode(name, InetAddress.getByName(addr).getHostAddress()));
      } catch (UnknownHostException e) {
        throw new NodeFailure("the address of Slurm node " + name + " (NodeAddr " + addr + ") does not resolve on this "
            + "host");
      }
    }
    return List.copyOf(nodes);
  }

  /** {@code NodeName -> NodeAddr} from the lines of {@code scontrol show node --oneliner}. */
  static Map<String, String> nodeAddresses(String oneLiners) {
    Map<String, String> out = new HashMap<>();
    for (String line : oneLiners.split("\n")) {
      String name = field(line, "NodeName");
      String addr = field(line, "NodeAddr");
      if (name != null && addr != null) {
        out.put(name, addr);
      }
    }
    return out;
  }

  private static String field(String line, String key) {
    for (String pair : line.strip().split("\\s+")) {
      if (pair.startsWith(key + "=")) {
        String value = pair.substring(key.length() + 1);
        return value.isEmpty() || value.equals("(null)") ? null : value;
      }
    }
    return null;
  }

  private static String scontrol(String... args) {
    List<String> cmd = new ArrayList<>(List.of("scontrol"));
    cmd.addAll(List.of(args));
    String what = String.join(" ", cmd);
    TimedCommand.Outcome out;
    try {
      out = TimedCommand.run(cmd, DEADLINE);
    } catch (TimeoutException e) {
      throw new NodeFailure("'" + what + "' did not answer within " + DEADLINE.toSeconds() + " s; it was killed");
    } catch (IOException e) {
      throw new NodeFailure("cannot run '" + what + "' (" + e.getMessage() + "): is Slurm's scontrol on the PATH?");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NodeFailure("interrupted while running '" + what + "'");
    }
    if (out.exitCode() != 0) {
      throw new NodeFailure("'" + what + "' failed (exit " + out.exitCode() + "): " + out.output().strip());
    }
    return out.output();
  }
}
