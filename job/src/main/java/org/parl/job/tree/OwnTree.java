package org.parl.job.tree;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The tree of the job JVM this runs in, seen from inside. A job ends its own tree in one case only:
 * its worker is gone (killed, or died), so no worker is left to end it, and the processes its actor
 * started would otherwise run on, holding their GPU, until the next worker on the host sweeps the
 * dead worker's cgroups.
 */
public final class OwnTree {

  private OwnTree() {}

  /**
   * Kills every other process of this JVM's tree (its cgroup where its worker gave it one, else its
   * session and descendants) and waits until they are gone, at most {@code waitMs}. Where some survive
   * in a cgroup, the whole group is killed at the deadline, this JVM with it. Blocking.
   *
   * @return the other processes still running at the deadline; empty when they are gone
   */
  public static List<Long> endOthers(long waitMs) {
    long self = ProcessHandle.current().pid();
    JobTree tree = Cgroups.own().filter(Cgroups::isJobGroup)
        .<JobTree>map(group -> new CgroupTree(self, group)).orElseGet(() -> new SessionTree(self));
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
    long pauseMs = 2;
    while (true) {
      List<Long> others = tree.pids().stream().filter(pid -> pid != self).toList();
      if (others.isEmpty()) {
        return others;
      }
      if (System.nanoTime() > deadline) {
        if (tree instanceof CgroupTree) {
          tree.kill(); // the whole group at once: this JVM ends here too
        }
        return others;
      }
      others.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
      try {
        Thread.sleep(pauseMs);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return others;
      }
      pauseMs = Math.min(100, pauseMs * 2);
    }
  }
}
