package org.parl.job.tree;

import java.util.List;

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
    List<Long> left = new Others(tree, self).killAndWait(waitMs);
    if (!left.isEmpty() && tree instanceof CgroupTree) {
      tree.kill(); // the whole group at once: this JVM ends here too
    }
    return left;
  }

  /** A tree without this JVM: the processes it started, killed one by one (the group's kill would end this JVM too). */
  private record Others(JobTree tree, long self) implements JobTree {

    @Override
    public long leader() {
      return self;
    }

    @Override
    public List<Long> pids() {
      return tree.pids().stream().filter(pid -> pid != self).toList();
    }

    @Override
    public void kill() {
      pids().forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }

    @Override
    public void release() {
      // the tree is this JVM's own: its worker, or the next worker on the host, removes its group
    }
  }
}
