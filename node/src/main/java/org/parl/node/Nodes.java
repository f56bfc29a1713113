package org.parl.node;

import com.hazelcast.config.Config;
import io.vertx.core.Deployable;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.parl.cluster.ClusterNode;
import org.parl.cluster.HazelcastSettings;
import org.parl.tls.ClusterKeys;
import org.parl.worker.WorkerSettings;

/** Start-up steps shared by the node commands, turning failures into one sentence. */
public final class Nodes {

  private static final long START_TIMEOUT_S = 60;

  private Nodes() {}

  /** Starts this process's cluster node; {@code keys} (from the cluster token) secure its event bus. */
  public static ClusterNode start(Config hazelcast, String host, ClusterKeys keys) {
    return await(ClusterNode.start(hazelcast, host, keys), "the cluster node");
  }

  /** {@link HazelcastSettings#build}, its failure (a missing or broken settings file) as one sentence. */
  public static Config settings(Path file, String clusterName, String host, String join, String role, boolean lite) {
    try {
      return HazelcastSettings.build(file, clusterName, host, join, role, lite);
    } catch (RuntimeException e) {
      throw new NodeFailure(e.getMessage());
    }
  }

  public static void deploy(Vertx vertx, Deployable verticle) {
    await(vertx.deployVerticle(verticle), verticle.getClass().getSimpleName());
  }

  /** Waits for a start-up step; its failure becomes one sentence. */
  public static <T> T await(Future<T> step, String what) {
    try {
      return step.await(START_TIMEOUT_S, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new NodeFailure(what + " did not finish within " + START_TIMEOUT_S + " s");
    } catch (ReplyException e) {
      throw new NodeFailure(e.getMessage());
    } catch (Exception e) {
      // await() rethrows checked failures too, such as a BindException
      throw new NodeFailure(rootMessage(e));
    }
  }

  /** Closes a node started by {@link #start}, giving up after a while. */
  public static void close(ClusterNode node) {
    try {
      node.close().await(START_TIMEOUT_S, TimeUnit.SECONDS);
    } catch (TimeoutException | RuntimeException e) {
      // shutting down anyway
    }
  }

  public static String describe(WorkerSettings w) {
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
