package org.parl.job.tree;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The processes of one job: its JVM and every process it started, children, grandchildren and
 * those that left its session. Ending a job ends the whole tree, and the job's resources return
 * only once the tree is gone ({@link CgroupTree} where the host allows it, else {@link SessionTree}).
 * Every method blocks briefly (reads or writes under {@code /proc} or {@code /sys/fs/cgroup}): call
 * them off the event loop.
 */
public interface JobTree {

  /** The pid of the job's JVM. */
  long leader();

  /** The processes of the tree that still run (zombies excluded). */
  List<Long> pids();

  /** Sends SIGKILL to every process of the tree, at once where the host allows it. */
  void kill();

  /** Forgets the tree once it is empty (removes its control group). */
  void release();

  /**
   * Kills the tree until it is gone or {@code waitMs} have passed. There is no handle to wait on
   * for processes that are not this JVM's children, so the tree is looked at again with a short,
   * growing pause, at most {@code waitMs} in all.
   *
   * @return the processes still running at the deadline; empty when the tree is gone
   */
  default List<Long> killAndWait(long waitMs) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
    long pauseMs = 2;
    while (true) {
      kill();
      List<Long> left = pids();
      if (left.isEmpty() || System.nanoTime() > deadline) {
        return left;
      }
      try {
        Thread.sleep(pauseMs);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return pids();
      }
      pauseMs = Math.min(100, pauseMs * 2);
    }
  }
}
