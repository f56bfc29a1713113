package org.parl.cli;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.parl.node.ParlHome;
import picocli.CommandLine.Command;

/** {@code parl stop}: stops the nodes this user started with {@code --detach} on this host. */
@Command(name = "stop", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = "Stop the nodes started with --detach on this host (by their pid files), job processes included.")
public final class StopCommand implements Callable<Integer> {

  private static final long GRACE_S = 20;

  @Override
  public Integer call() {
    List<PidFiles.Node> nodes = new ArrayList<>(PidFiles.live());
    if (nodes.isEmpty()) {
      System.out.println("nothing to stop: no node started with --detach runs under " + ParlHome.root());
      return 0;
    }
    // workers and monitors first, so that they do not report their master's departure
    nodes.sort(Comparator.comparing(n -> n.role().equals("master") ? 1 : 0));
    for (PidFiles.Node n : nodes) {
      List<ProcessHandle> family = n.process().descendants().toList();
      n.process().destroy();
      boolean clean = n.process().onExit().completeOnTimeout(null, GRACE_S, TimeUnit.SECONDS).join() != null;
      if (!clean) {
        n.process().destroyForcibly();
      }
      for (ProcessHandle child : family) {
        if (child.isAlive()) {
          child.destroyForcibly();
        }
      }
      PidFiles.delete(n.file());
      System.out.println("stopped " + n.role() + " (pid " + n.process().pid() + ")" + (clean ? "" : " forcibly"));
    }
    return 0;
  }
}
