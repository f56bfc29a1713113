package org.parl.bench;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Every process one benchmark run started, stopped at the end of the run, and also when the JVM
 * exits early (Ctrl-C, SIGTERM) through a shutdown hook, so that no cluster is left behind.
 */
final class ChildProcesses implements AutoCloseable {

  private final Deque<ChildProcess> started = new ArrayDeque<>();
  private final Thread hook = new Thread(this::stopAll, "parl-bench-cleanup");

  ChildProcesses() {
    Runtime.getRuntime().addShutdownHook(hook);
  }

  synchronized ChildProcess add(ChildProcess p) {
    started.push(p);
    return p;
  }

  /** Stops one process now (and forgets it). */
  void stop(ChildProcess p) {
    synchronized (this) {
      started.remove(p);
    }
    p.close();
  }

  /** Stops every process at once: SIGTERM to all, then each gets its grace period. */
  private void stopAll() {
    List<ChildProcess> all;
    synchronized (this) {
      all = new ArrayList<>(started);
      started.clear();
    }
    all.forEach(ChildProcess::terminate);
    all.forEach(ChildProcess::close);
  }

  @Override
  public void close() {
    stopAll();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // already shutting down: the hook runs anyway
    }
  }
}
