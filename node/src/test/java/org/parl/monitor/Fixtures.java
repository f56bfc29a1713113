package org.parl.monitor;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Cluster map records as the JobCenter, the gateway and the workers publish them. */
final class Fixtures {

  static final long NOW = 1_700_000_100_000L;

  private Fixtures() {}

  static JsonObject gpuWorker(String id, String nodeId, List<Integer> vacant, List<Integer> used, List<String> jobs) {
    JsonArray devices = new JsonArray();
    for (int i = 0; i < vacant.size() + used.size(); i++) {
      devices.add(device(i, 512 + 100 * i, 3 * i));
    }
    return new JsonObject()
        .put("id", id)
        .put("nodeId", nodeId)
        .put("hostname", "host-" + id)
        .put("address", "127.0.0.1")
        .put("cpus", new JsonObject().put("total", 0).put("used", 0).put("vacant", 0))
        .put("hostCpus", 2)
        .put("worker_vacant_gpus", new JsonArray(vacant))
        .put("worker_used_gpus", new JsonArray(used))
        .put("gpuDevices", devices)
        .put("jobs", new JsonArray(jobs));
  }

  static JsonObject cpuWorker(String id, String nodeId, int total, int used, List<String> jobs) {
    return new JsonObject()
        .put("id", id)
        .put("nodeId", nodeId)
        .put("hostname", "host-" + id)
        .put("address", "10.0.0.7")
        .put("cpus", new JsonObject().put("total", total).put("used", used).put("vacant", total - used))
        .put("hostCpus", total)
        .put("worker_vacant_gpus", new JsonArray())
        .put("worker_used_gpus", new JsonArray())
        .put("gpuDevices", new JsonArray())
        .put("jobs", new JsonArray(jobs));
  }

  static JsonObject device(int index, int usedMb, int util) {
    return new JsonObject()
        .put("index", index)
        .put("uuid", "GPU-fake-" + index)
        .put("name", "NVIDIA Fake H100")
        .put("memoryTotalMb", 81559)
        .put("memoryUsedMb", usedMb)
        .put("utilization", util);
  }

  static JsonObject job(String jobId, String clientId, String workerId, List<Integer> gpus) {
    return new JsonObject()
        .put("jobId", jobId)
        .put("clientId", clientId)
        .put("workerId", workerId)
        .put("actorClass", "org.example.Counter")
        .put("cpus", gpus.isEmpty() ? 1 : 0)
        .put("gpus", new JsonArray(gpus))
        .put("maxMemoryMb", 0)
        .put("createdAt", NOW - 5_000);
  }

  static JsonObject client(String id, List<String> jobs, long connectedAt) {
    return new JsonObject()
        .put("id", id)
        .put("hostname", "laptop")
        .put("program", "org.example.Train")
        .put("pid", 4242)
        .put("address", "127.0.0.1")
        .put("actors", jobs.size())
        .put("jobs", new JsonArray(jobs))
        .put("connectedAt", connectedAt);
  }

  static JsonObject stats(String workerId, long at, JsonArray gpuDevices, long calls) {
    return new JsonObject()
        .put("workerId", workerId)
        .put("memory", new JsonObject().put("totalMb", 16000).put("usedMb", 4000))
        .put("load", 1.25)
        .put("gpuDevices", gpuDevices)
        .put("callsServed", calls)
        .put("updatedAt", at);
  }

  /** A GPU cluster: w-a (4 GPUs, job-1 holds 1 and job-3 holds 2,3) and w-b (2 GPUs, job-2 holds 0). */
  static ClusterState gpuCluster() {
    return new ClusterState(
        new JsonObject().put("clusterType", "gpu").put("address", "127.0.0.1:8010"),
        Map.of(
            "w-a", gpuWorker("w-a", "node-a", List.of(0), List.of(1, 2, 3), List.of("job-1", "job-3")),
            "w-b", gpuWorker("w-b", "node-b", List.of(1), List.of(0), List.of("job-2"))),
        Map.of(
            "job-1", job("job-1", "c-1", "w-a", List.of(1)),
            "job-2", job("job-2", "c-1", "w-b", List.of(0)),
            "job-3", job("job-3", "c-2", "w-a", List.of(2, 3))),
        Map.of(
            "c-1", client("c-1", List.of("job-1", "job-2"), NOW - 90_500),
            "c-2", client("c-2", List.of("job-3"), NOW - 1_000)),
        Map.of(
            "w-a", stats("w-a", NOW - 1_000, new JsonArray()
                .add(device(0, 600, 0)).add(device(1, 20_000, 97)).add(device(2, 512, 40)).add(device(3, 700, 41)), 17),
            "gone", stats("gone", NOW - 50_000, new JsonArray(), 5)),
        new JsonObject().put("waiting", 2).put("longestWaitMs", 1500L).put("jobsStarted", 9L).put("jobsLost", 1L),
        Set.of("node-a", "node-b", "node-master"));
  }
}
