package org.parl.monitor;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.function.Supplier;
import org.parl.ha.Masters;
import org.parl.internal.wire.gateway.GatewayCodec;

/**
 * The monitor's current picture of the cluster: each refresh reads the cluster
 * ({@link ClusterReader}), builds the API view ({@link ClusterView}) and feeds the statistics
 * history the charts start from.
 */
final class ClusterWatch {

  private static final int HISTORY_POINTS = 150;

  private final ClusterReader reader;
  private final Supplier<String> baseUrl;
  private final Supplier<Masters> masters;
  private final StatsHistory history = new StatsHistory(HISTORY_POINTS);

  /** @param masters the cluster's masters as this node sees them, shown with the active one marked (docs/contract.md §10) */
  ClusterWatch(ClusterReader reader, Supplier<String> baseUrl, Supplier<Masters> masters) {
    this.reader = reader;
    this.baseUrl = baseUrl;
    this.masters = masters;
  }

  Future<JsonObject> refresh() {
    return reader.read().map(state -> {
      JsonObject view = ClusterView.build(state, baseUrl.get(), System.currentTimeMillis());
      Masters now = masters.get();
      JsonArray list = new JsonArray();
      now.states().forEach(m -> list.add(GatewayCodec.toJson(m)));
      view.put("masters", list);
      now.active().ifPresent(a -> view.put("address", a.address())); // the first master's may be gone
      history.record(view);
      return view;
    });
  }

  /** The waiting creates with their reasons, read fresh (computed by the JobCenter on demand). */
  Future<JsonObject> waiting() {
    return reader.waiting();
  }

  /** Drains or undrains a worker or one of its GPUs, for a logged-in operator. */
  Future<Void> drain(String workerId, Integer gpu, boolean drained) {
    return reader.drain(workerId, gpu, drained);
  }

  JsonObject history() {
    return history.toJson();
  }
}
