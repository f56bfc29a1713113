package org.parl.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StatsHistoryTest {

  @Test
  void onePointPerReportInColumns() {
    StatsHistory h = new StatsHistory(3);
    for (int i = 0; i < 5; i++) {
      h.record(view(1_000L * (i + 1), i * 10));
      h.record(view(1_000L * (i + 1), i * 10)); // the same report seen twice counts once
    }
    JsonObject a = h.toJson().getJsonObject("w-a");
    assertEquals(List.of(3.0, 4.0, 5.0), a.getJsonArray("t").getList(), "the oldest points fall off");
    assertEquals(List.of(20, 30, 40), a.getJsonObject("gpus").getJsonObject("1").getJsonArray("utilization").getList());
    assertEquals(List.of(1.25, 1.25, 1.25), a.getJsonArray("load").getList());
  }

  @Test
  void workersThatLeftAreForgotten() {
    StatsHistory h = new StatsHistory(10);
    h.record(view(1_000, 5));
    ClusterState s = Fixtures.gpuCluster();
    h.record(ClusterView.build(new ClusterState(s.cluster(), Map.of(), Map.of(), Map.of(), Map.of(), null, Set.of()), "", 0));
    assertFalse(h.toJson().containsKey("w-a"));
  }

  private static JsonObject view(long at, int util) {
    ClusterState s = Fixtures.gpuCluster();
    JsonObject stats = Fixtures.stats("w-a", at, new JsonArray().add(Fixtures.device(1, 100, util)), 0);
    return ClusterView.build(new ClusterState(s.cluster(), Map.of("w-a", s.workers().get("w-a")), Map.of(), Map.of(),
        Map.of("w-a", stats), null, null), "", at);
  }
}
