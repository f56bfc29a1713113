package org.parl.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClusterViewTest {

  private static final String BASE = "http://127.0.0.1:8110";

  @Test
  void gpuClusterHasTheSpecShape() {
    JsonObject v = ClusterView.build(Fixtures.gpuCluster(), BASE, Fixtures.NOW);
    assertEquals("gpu", v.getString("clusterType"));
    assertEquals("ok", v.getString("jobCenter"));
    JsonArray workers = v.getJsonArray("workers");
    assertEquals(2, workers.size());
    JsonObject a = workers.getJsonObject(0);
    assertEquals("w-a", a.getString("id"));
    assertEquals("host-w-a", a.getString("hostname"));
    assertEquals("127.0.0.1", a.getString("address"));
    assertEquals(new JsonObject().put("total", 0).put("used", 0).put("vacant", 0), a.getJsonObject("cpus"));
    assertEquals(List.of(0), a.getJsonObject("gpus").getJsonArray("vacant").getList());
    assertEquals(List.of(1, 2, 3), a.getJsonObject("gpus").getJsonArray("used").getList());
    assertEquals(new JsonObject().put("totalMb", 16000).put("usedMb", 4000), a.getJsonObject("memory"));
    assertEquals(1.25, a.getDouble("load"));
    assertEquals(17L, a.getLong("callsServed"));
    assertEquals(List.of("job-1", "job-3"), a.getJsonArray("jobs").getList());
  }

  @Test
  void eachGpuSaysItsStateItsJobAndTheLiveFigures() {
    JsonObject v = ClusterView.build(Fixtures.gpuCluster(), BASE, Fixtures.NOW);
    JsonArray devices = v.getJsonArray("workers").getJsonObject(0).getJsonArray("gpuDevices");
    assertEquals(4, devices.size());
    JsonObject g0 = devices.getJsonObject(0);
    assertEquals(0, g0.getInteger("index"));
    assertEquals("vacant", g0.getString("state"));
    assertNull(g0.getString("jobId"));
    JsonObject g1 = devices.getJsonObject(1);
    assertEquals("used", g1.getString("state"));
    assertEquals("job-1", g1.getString("jobId"));
    assertEquals("NVIDIA Fake H100", g1.getString("name"));
    assertEquals(81559, g1.getInteger("memoryTotalMb"));
    assertEquals(20_000, g1.getInteger("memoryUsedMb"), "live figures from the stats map win");
    assertEquals(97, g1.getInteger("utilization"));
    assertEquals("job-3", devices.getJsonObject(2).getString("jobId"));
    assertEquals("job-3", devices.getJsonObject(3).getString("jobId"));

    JsonObject b = v.getJsonArray("workers").getJsonObject(1);
    assertNull(b.getJsonObject("memory"), "no stats yet");
    assertEquals(0L, b.getLong("callsServed"));
    JsonArray bDevices = b.getJsonArray("gpuDevices");
    assertEquals("job-2", bDevices.getJsonObject(0).getString("jobId"));
    assertEquals(512, bDevices.getJsonObject(0).getInteger("memoryUsedMb"), "registration figures without stats");
  }

  @Test
  void totalsAddUp() {
    JsonObject t = ClusterView.build(Fixtures.gpuCluster(), BASE, Fixtures.NOW).getJsonObject("totals");
    assertEquals(2, t.getInteger("workers"));
    assertEquals(new JsonObject().put("total", 6).put("used", 4).put("vacant", 2), t.getJsonObject("gpus"));
    assertEquals(new JsonObject().put("total", 0).put("used", 0).put("vacant", 0), t.getJsonObject("cpus"));
    assertEquals(2, t.getInteger("clients"));
    assertEquals(3, t.getInteger("jobs"));
    assertEquals(2, t.getInteger("waiting"));
    assertEquals(1500L, t.getLong("longestWaitMs"));
  }

  @Test
  void clientsHaveUptimeAndTheirJobsPage() {
    JsonArray clients = ClusterView.build(Fixtures.gpuCluster(), BASE, Fixtures.NOW).getJsonArray("clients");
    JsonObject c1 = clients.getJsonObject(0);
    assertEquals("c-1", c1.getString("id"), "oldest first");
    assertEquals("org.example.Train", c1.getString("program"));
    assertEquals("laptop", c1.getString("hostname"));
    assertEquals(2, c1.getInteger("actors"));
    assertEquals(90L, c1.getLong("uptimeS"));
    assertEquals(BASE + "/jobs.html?client=c-1", c1.getString("logUrl"));
  }

  @Test
  void workersOfDeadNodesAndTheirJobsAreLeftOut() {
    ClusterState s = Fixtures.gpuCluster();
    ClusterState withoutB = new ClusterState(s.cluster(), s.workers(), s.jobs(), s.clients(), s.stats(), s.queue(),
        Set.of("node-a", "node-master"));
    JsonObject v = ClusterView.build(withoutB, BASE, Fixtures.NOW);
    assertEquals(1, v.getJsonArray("workers").size());
    assertEquals(List.of("job-1", "job-3"), v.getJsonArray("jobs").stream().map(j -> ((JsonObject) j).getString("jobId")).toList());
    assertEquals(4, v.getJsonObject("totals").getJsonObject("gpus").getInteger("total"));
  }

  @Test
  void aCpuClusterCountsCpus() {
    ClusterState s = new ClusterState(new JsonObject().put("clusterType", "cpu"),
        Map.of("w-1", Fixtures.cpuWorker("w-1", "n1", 4, 1, List.of("job-7")),
            "w-2", Fixtures.cpuWorker("w-2", "n2", 8, 0, List.of())),
        Map.of("job-7", Fixtures.job("job-7", "c-9", "w-1", List.of())), Map.of(), Map.of(), null, null);
    JsonObject v = ClusterView.build(s, BASE, Fixtures.NOW);
    assertEquals("cpu", v.getString("clusterType"));
    assertEquals("unreachable", v.getString("jobCenter"));
    JsonObject t = v.getJsonObject("totals");
    assertEquals(new JsonObject().put("total", 12).put("used", 1).put("vacant", 11), t.getJsonObject("cpus"));
    assertEquals(new JsonObject().put("total", 0).put("used", 0).put("vacant", 0), t.getJsonObject("gpus"));
    assertEquals(0, t.getInteger("waiting"));
    assertEquals(new JsonArray(), v.getJsonArray("workers").getJsonObject(0).getJsonArray("gpuDevices"));
  }

  @Test
  void jobsSortNumerically() {
    assertEquals(2L, ClusterView.jobNumber("job-2"));
    assertEquals(Long.MAX_VALUE, ClusterView.jobNumber("x"));
  }
}
