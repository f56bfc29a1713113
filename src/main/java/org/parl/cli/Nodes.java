package org.parl.cli;

import com.hazelcast.config.Config;
import io.vertx.core.Deployable;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.parl.cluster.ClusterNode;
import org.parl.worker.WorkerSettings;

/** Start-up steps shared by the node commands, turning failures into one sentence. */
final class Nodes {

  private static final long START_TIMEOUT_S = 60;

  private Nodes() {}

  static ClusterNode start(Config hazelcast, String host) {
    try {
      return ClusterNode.start(hazelcast, host).await(START_TIMEOUT_S, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new CliFailure("the cluster node did not start within " + START_TIMEOUT_S + " s");
    } catch (RuntimeException e) {
      throw new CliFailure("the cluster node could not start: " + rootMessage(e));
    }
  }

  static void deploy(Vertx vertx, Deployable verticle) {
    try {
      vertx.deployVerticle(verticle).await(START_TIMEOUT_S, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new CliFailure(verticle.getClass().getSimpleName() + " did not start within " + START_TIMEOUT_S + " s");
    } catch (ReplyException e) {
      throw new CliFailure(e.getMessage());
    } catch (RuntimeException e) {
      throw new CliFailure(rootMessage(e));
    }
  }

  /** Closes a node started by {@link #start}, giving up after a while. */
  static void close(ClusterNode node) {
    try {
      node.close().await(START_TIMEOUT_S, TimeUnit.SECONDS);
    } catch (TimeoutException | RuntimeException e) {
      // shutting down anyway
    }
  }

  static String describe(WorkerSettings w) {
    return w.gpus().isEmpty() ? w.cpus() + " CPU(s)"
        : "GPU(s) " + String.join(",", w.gpus().stream().map(String::valueOf).toList());
  }

  private static String rootMessage(Throwable t) {
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() != null ? t.getMessage() : t.toString();
  }
}
