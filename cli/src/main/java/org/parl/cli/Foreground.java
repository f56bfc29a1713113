package org.parl.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.parl.cluster.ClusterNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a node running until Ctrl-C/SIGTERM (a clean shutdown through a shutdown hook) or until
 * the node itself decides to stop, for instance a worker whose master is gone.
 */
final class Foreground {

  private static final Logger log = LoggerFactory.getLogger(Foreground.class);
  private static final long CLOSE_TIMEOUT_S = 15;

  private final CountDownLatch stopped = new CountDownLatch(1);
  private final Runnable cleanup;
  private final String name;
  private volatile int exitCode;

  /**
   * @param name the node as its one stop line names it ({@code parl worker w-1}): printed once it has left the cluster
   */
  Foreground(ClusterNode node, String name, Runnable cleanup) {
    this.cleanup = cleanup;
    this.name = name;
    Runtime.getRuntime().addShutdownHook(new Thread(() -> close(node), "parl-shutdown"));
  }

  /** Ends {@link #await()} with the given exit code; the shutdown hook then closes the node. */
  void stop(int code) {
    exitCode = code;
    stopped.countDown();
  }

  int await() {
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return exitCode;
  }

  private void close(ClusterNode node) {
    try {
      cleanup.run();
      node.close().await(CLOSE_TIMEOUT_S, TimeUnit.SECONDS);
      System.out.println(name + " stopped");
    } catch (TimeoutException e) {
      log.warn("the node did not close within {} s; exiting anyway", CLOSE_TIMEOUT_S);
    } catch (RuntimeException e) {
      log.warn("closing the node failed: {}", e.getMessage());
    }
  }
}
