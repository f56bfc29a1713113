package org.parl.monitor;

import com.hazelcast.cluster.Member;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.parl.cluster.Addresses;
import org.parl.cluster.ClusterNode;
import org.parl.control.ControlCodec;
import org.parl.control.Failures;
import org.parl.control.JobCenterRequest.Drain;
import org.parl.control.JobCenterRequest.GetQueue;
import org.parl.control.JobCenterRequest.GetWaiting;
import org.parl.ha.JobCenterCalls;
import org.parl.ha.Masters;
import org.parl.internal.wire.ErrorKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the cluster maps and the JobCenter's queue figures into a {@link ClusterState}, without
 * blocking. Reads are coalesced: while one is in flight, callers share it. Used from the
 * monitor's context only.
 */
final class ClusterReader {

  private static final Logger log = LoggerFactory.getLogger(ClusterReader.class);
  private static final long JOB_CENTER_TIMEOUT_MS = 2_000;

  private final Vertx vertx;
  private final ClusterNode node;
  private final Supplier<Masters> masters;
  private Future<ClusterState> inFlight;
  private boolean jobCenterDown;

  /** @param masters the cluster's masters: the active one's JobCenter is asked for its queue */
  ClusterReader(Vertx vertx, ClusterNode node, Supplier<Masters> masters) {
    this.vertx = vertx;
    this.node = node;
    this.masters = masters;
  }

  Future<ClusterState> read() {
    if (inFlight != null) {
      return inFlight;
    }
    Future<Map<String, JsonObject>> cluster = entries(Addresses.CLUSTER_MAP);
    Future<Map<String, JsonObject>> workers = entries(Addresses.WORKERS_MAP);
    Future<Map<String, JsonObject>> jobs = entries(Addresses.JOBS_MAP);
    Future<Map<String, JsonObject>> clients = entries(Addresses.CLIENTS_MAP);
    Future<Map<String, JsonObject>> stats = entries(Addresses.STATS_MAP);
    Future<JsonObject> queue = queue();
    Future<ClusterState> f = Future.all(cluster, workers, jobs, clients, stats, queue).map(all -> new ClusterState(
        cluster.result().getOrDefault(Addresses.CLUSTER_KEY, new JsonObject()),
        workers.result(), jobs.result(), clients.result(), stats.result(), queue.result(), liveNodes(),
        masters.get().active().map(a -> cluster.result().get(Addresses.gatewayKey(a.memberId()))).orElse(null)));
    if (!f.isComplete()) {
      inFlight = f;
      f.onComplete(ar -> inFlight = null);
    }
    return f;
  }

  private Future<Map<String, JsonObject>> entries(String name) {
    return vertx.sharedData().<String, String>getClusterWideMap(name)
        .compose(m -> m.entries())
        .map(raw -> {
          Map<String, JsonObject> out = new HashMap<>();
          node.records().verifyAll(name, raw).forEach((k, v) -> {
            try {
              out.put(k, new JsonObject(v));
            } catch (DecodeException | ClassCastException e) {
              log.debug("ignored a record of map {} that is not JSON: {}", name, k);
            }
          });
          return out;
        });
  }

  /**
   * The JobCenter's waiting count, longest wait and most waiting of one client; null (not a
   * failure) when it does not answer.
   */
  private Future<JsonObject> queue() {
    // GetQueue is cheap; GetSnapshot would build every worker's record and check the whole pool
    return JobCenterCalls.request(vertx, masters, new GetQueue(), JOB_CENTER_TIMEOUT_MS)
        .map(s -> {
          if (jobCenterDown) {
            jobCenterDown = false;
            log.info("the JobCenter answers the monitor again");
          }
          return new JsonObject().put("waiting", s.waiting()).put("longestWaitMs", s.longestWaitMs())
              .put("mostWaitingOfOneClient", s.mostWaitingOfOneClient())
              .put("jobsStarted", s.jobsStarted()).put("jobsLost", s.jobsLost())
              .put("byReason", new JsonObject(new java.util.HashMap<>(s.byReason())));
        })
        .otherwise(e -> {
          if (!jobCenterDown) {
            jobCenterDown = true;
            log.warn("the JobCenter does not answer the monitor ({}); waiting requests are not shown", e.getMessage());
          }
          return null;
        });
  }

  /**
   * {@code GET /api/waiting}: the creates waiting for resources in queue order, each with why.
   * Fails with {@link ApiError} 503 when the JobCenter does not answer.
   */
  Future<JsonObject> waiting() {
    return JobCenterCalls.request(vertx, masters, new GetWaiting(), JOB_CENTER_TIMEOUT_MS)
        .map(w -> {
          JsonArray list = new JsonArray();
          w.waiting().forEach(c -> list.add(ControlCodec.toJson(c)));
          return new JsonObject().put("waiting", list);
        })
        .recover(e -> Future.failedFuture(silent(e)));
  }

  /**
   * {@code POST /api/drain}: takes a worker, or one of its GPUs, out of service or back (docs/contract.md
   * §11). Fails with {@link ApiError} 404 for an unknown worker or GPU, 503 when the JobCenter does
   * not answer.
   */
  Future<Void> drain(String workerId, Integer gpu, boolean drained) {
    return JobCenterCalls.request(vertx, masters, new Drain(workerId, gpu, drained), JOB_CENTER_TIMEOUT_MS)
        .<Void>mapEmpty()
        .recover(e -> Future.failedFuture(Failures.kindOf(e) == ErrorKind.NOT_FOUND ? ApiError.notFound(e.getMessage())
            : silent(e)));
  }

  private Set<String> liveNodes() {
    try {
      Set<String> ids = new HashSet<>();
      for (Member m : node.hazelcast().getCluster().getMembers()) {
        String id = m.getAttribute(Addresses.NODE_ID_ATTRIBUTE);
        if (id != null) {
          ids.add(id);
        }
      }
      return ids;
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** The error of a request the JobCenter did not answer. */
  private static ApiError silent(Throwable e) {
    return new ApiError(503, "the JobCenter does not answer: " + e.getMessage());
  }
}
