package org.parl.monitor;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.function.Supplier;

/**
 * The monitor's current picture of the cluster: each refresh reads the cluster
 * ({@link ClusterReader}), builds the API view ({@link ClusterView}) and feeds the statistics
 * history the charts start from.
 */
final class ClusterWatch {

  private static final int HISTORY_POINTS = 150;

  private final ClusterReader reader;
  private final Supplier<String> baseUrl;
  private final StatsHistory history = new StatsHistory(HISTORY_POINTS);

  ClusterWatch(ClusterReader reader, Supplier<String> baseUrl) {
    this.reader = reader;
    this.baseUrl = baseUrl;
  }

  Future<JsonObject> refresh() {
    return reader.read().map(state -> {
      JsonObject view = ClusterView.build(state, baseUrl.get(), System.currentTimeMillis());
      history.record(view);
      return view;
    });
  }

  JsonObject history() {
    return history.toJson();
  }
}
