package org.parl.monitor;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.parl.internal.resources.GpuAmount;

/**
 * Turns a {@link ClusterState} into the JSON of {@code GET /api/cluster} (docs/contract.md §6): workers with
 * their CPUs, GPU ids and live GPU figures (and which job holds each used GPU), clients with their
 * uptime and the link to their jobs page, live jobs, and totals; and what the capped resources use
 * (docs/contract.md §8): each worker's job logs and code cache on disk, the gateway's connections. Plain Java, no I/O.
 */
public final class ClusterView {

  private ClusterView() {}

  /**
   * @param baseUrl the monitor's own URL, without a trailing slash, for the clients' {@code logUrl}
   * @param now the current time in milliseconds, for uptimes
   */
  public static JsonObject build(ClusterState s, String baseUrl, long now) {
    List<String> workerIds = s.workers().keySet().stream().filter(s::workerAlive).sorted().toList();
    Map<String, Map<Integer, List<String>>> gpuHolders = gpuHolders(s, workerIds);
    JsonArray workers = new JsonArray();
    Totals totals = new Totals();
    for (String id : workerIds) {
      JsonObject w = worker(s.workers().get(id), s.stats().get(id), gpuHolders.getOrDefault(id, Map.of()));
      totals.add(w);
      workers.add(w);
    }
    JsonArray jobs = new JsonArray();
    s.jobs().values().stream()
        .filter(j -> workerIds.contains(j.getString("workerId")))
        .sorted(Comparator.comparingLong(j -> jobNumber(j.getString("jobId"))))
        .forEach(jobs::add);
    JsonArray clients = new JsonArray();
    s.clients().values().stream()
        .sorted(Comparator.comparingLong((JsonObject c) -> c.getLong("connectedAt", 0L)).thenComparing(c -> c.getString("id", "")))
        .forEach(c -> clients.add(client(c, baseUrl, now)));
    JsonObject queue = s.queue();
    JsonObject totalsJson = totals.toJson()
        .put("clients", clients.size())
        .put("jobs", jobs.size())
        .put("waiting", queue == null ? 0 : queue.getInteger("waiting", 0))
        .put("longestWaitMs", queue == null ? 0 : queue.getLong("longestWaitMs", 0L))
        .put("mostWaitingOfOneClient", queue == null ? 0 : queue.getInteger("mostWaitingOfOneClient", 0))
        .put("jobsStarted", queue == null ? null : queue.getLong("jobsStarted"))
        .put("jobsLost", queue == null ? null : queue.getLong("jobsLost"))
        .put("waitingByReason", queue == null ? new JsonObject() : queue.getJsonObject("byReason", new JsonObject()));
    return new JsonObject()
        .put("clusterType", clusterType(s))
        .put("address", s.cluster().getString("address"))
        .put("jobCenter", queue == null ? "unreachable" : "ok")
        .put("workers", workers)
        .put("clients", clients)
        .put("jobs", jobs)
        .put("totals", totalsJson)
        .put("gateway", s.gateway());
  }

  private static String clusterType(ClusterState s) {
    String t = s.cluster().getString("clusterType");
    if (t != null) {
      return t;
    }
    return s.workers().values().stream().anyMatch(w -> !array(w, "worker_vacant_gpus").isEmpty()
        || !array(w, "worker_used_gpus").isEmpty()) ? "gpu" : "cpu";
  }

  /** Worker id to (GPU id to the live jobs holding it, whole or by shares), from the jobs map. */
  private static Map<String, Map<Integer, List<String>>> gpuHolders(ClusterState s, List<String> workerIds) {
    Map<String, Map<Integer, List<String>>> holders = new HashMap<>();
    for (JsonObject j : s.jobs().values()) {
      String workerId = j.getString("workerId");
      if (workerId == null || !workerIds.contains(workerId)) {
        continue;
      }
      for (Object gpu : array(j, "gpus")) {
        if (gpu instanceof Integer id) {
          holders.computeIfAbsent(workerId, k -> new HashMap<>()).computeIfAbsent(id, k -> new ArrayList<>())
              .add(j.getString("jobId"));
        }
      }
    }
    return holders;
  }

  private static JsonObject worker(JsonObject record, JsonObject stats, Map<Integer, List<String>> holders) {
    JsonArray vacant = array(record, "worker_vacant_gpus");
    JsonArray used = array(record, "worker_used_gpus");
    JsonArray outOfService = array(record, "worker_out_of_service_gpus");
    JsonObject cpus = record.getJsonObject("cpus", new JsonObject());
    JsonObject w = new JsonObject()
        .put("id", record.getString("id"))
        .put("hostname", record.getString("hostname"))
        .put("address", record.getString("address"))
        .put("cpus", new JsonObject()
            .put("total", cpus.getInteger("total", 0))
            .put("used", cpus.getInteger("used", 0))
            .put("vacant", cpus.getInteger("vacant", 0)))
        .put("hostCpus", record.getInteger("hostCpus"))
        .put("gpus", new JsonObject().put("vacant", vacant.copy()).put("used", used.copy())
            .put("outOfService", outOfService.copy()).put("shares", array(record, "gpuShares").copy()))
        .put("drained", record.getBoolean("drained", false))
        .put("gpuDevices", gpuDevices(record, stats, holders))
        .put("memory", stats == null ? null : stats.getJsonObject("memory"))
        .put("load", stats == null ? null : stats.getValue("load"))
        .put("jobs", array(record, "jobs").copy())
        .put("callsServed", stats == null ? 0L : stats.getLong("callsServed", 0L))
        .put("disk", stats == null ? null : stats.getJsonObject("disk"))
        .put("statsAt", stats == null ? null : stats.getLong("updatedAt"));
    if (stats != null && stats.getString("gpuProblem") != null) {
      w.put("gpuProblem", stats.getString("gpuProblem"));
    }
    return w;
  }

  /**
   * One entry per GPU the worker lends, in id order: the registration's description updated with
   * the latest nvidia-smi figures, its state, and the job that holds it.
   */
  private static JsonArray gpuDevices(JsonObject record, JsonObject stats, Map<Integer, List<String>> holders) {
    Map<Integer, JsonObject> known = byIndex(array(record, "gpuDevices"));
    Map<Integer, JsonObject> live = stats == null ? Map.of() : byIndex(array(stats, "gpuDevices"));
    Map<Integer, JsonObject> shares = byIndex(array(record, "gpuShares"));
    List<Integer> ids = new ArrayList<>();
    for (String list : List.of("worker_vacant_gpus", "worker_used_gpus", "worker_out_of_service_gpus")) {
      for (Object o : array(record, list)) {
        if (o instanceof Integer i) {
          ids.add(i);
        }
      }
    }
    ids.sort(null);
    JsonArray used = array(record, "worker_used_gpus");
    JsonArray out = new JsonArray();
    for (int id : ids) {
      JsonObject base = known.getOrDefault(id, new JsonObject());
      JsonObject now = live.getOrDefault(id, base);
      JsonObject share = shares.getOrDefault(id, new JsonObject());
      List<String> jobs = holders.getOrDefault(id, List.of());
      out.add(new JsonObject()
          .put("index", id)
          .put("uuid", first(now, base, "uuid"))
          .put("name", Objects.requireNonNullElse(first(now, base, "name"), "GPU " + id))
          .put("memoryTotalMb", first(now, base, "memoryTotalMb"))
          .put("memoryUsedMb", first(now, base, "memoryUsedMb"))
          .put("utilization", first(now, base, "utilization"))
          .put("state", gpuState(used.contains(id), share))
          .put("shareUsed", share.getInteger("shareUsed", used.contains(id) ? GpuAmount.UNITS_PER_GPU : 0))
          .put("memoryBudgetMb", share.getLong("memoryBudgetMb", 0L))
          .put("fault", share.getString("fault"))
          .put("jobId", jobs.isEmpty() ? null : jobs.get(0))
          .put("jobIds", new JsonArray(List.copyOf(jobs))));
    }
    return out;
  }

  /** {@code quarantined} and {@code drained} come first: they say what an operator must know about the GPU. */
  private static String gpuState(boolean used, JsonObject share) {
    if (share.getBoolean("quarantined", false)) {
      return "quarantined";
    }
    if (share.getBoolean("drained", false)) {
      return "drained";
    }
    return used ? "used" : "vacant";
  }

  private static Object first(JsonObject live, JsonObject registered, String key) {
    Object v = live.getValue(key);
    return v != null ? v : registered.getValue(key);
  }

  private static Map<Integer, JsonObject> byIndex(JsonArray devices) {
    Map<Integer, JsonObject> m = new HashMap<>();
    for (Object o : devices) {
      if (o instanceof JsonObject d && d.getValue("index") instanceof Integer i) {
        m.put(i, d);
      }
    }
    return m;
  }

  private static JsonObject client(JsonObject c, String baseUrl, long now) {
    String id = c.getString("id");
    long connectedAt = c.getLong("connectedAt", now);
    return new JsonObject()
        .put("id", id)
        .put("hostname", c.getString("hostname"))
        .put("program", c.getString("program"))
        .put("pid", c.getValue("pid"))
        .put("address", c.getString("address"))
        .put("actors", c.getInteger("actors", 0))
        .put("jobs", array(c, "jobs").copy())
        .put("connectedAt", connectedAt)
        .put("uptimeS", Math.max(0, (now - connectedAt) / 1000))
        .put("logUrl", baseUrl + "/jobs.html?client=" + id);
  }

  /** The number in {@code job-12}, for ordering; ids that are not ours sort last. */
  static long jobNumber(String jobId) {
    if (jobId != null && jobId.startsWith("job-")) {
      try {
        return Long.parseLong(jobId.substring(4));
      } catch (NumberFormatException e) {
        // falls through
      }
    }
    return Long.MAX_VALUE;
  }

  static JsonArray array(JsonObject o, String name) {
    return o.getValue(name) instanceof JsonArray a ? a : new JsonArray();
  }

  /** Sums over the workers. */
  private static final class Totals {
    int workers;
    int cpusTotal;
    int cpusUsed;
    int cpusVacant;
    int gpusUsed;
    int gpusVacant;

    void add(JsonObject w) {
      workers++;
      JsonObject c = w.getJsonObject("cpus");
      cpusTotal += c.getInteger("total");
      cpusUsed += c.getInteger("used");
      cpusVacant += c.getInteger("vacant");
      gpusUsed += w.getJsonObject("gpus").getJsonArray("used").size();
      gpusVacant += w.getJsonObject("gpus").getJsonArray("vacant").size();
    }

    JsonObject toJson() {
      return new JsonObject()
          .put("workers", workers)
          .put("cpus", new JsonObject().put("total", cpusTotal).put("used", cpusUsed).put("vacant", cpusVacant))
          .put("gpus", new JsonObject().put("total", gpusUsed + gpusVacant).put("used", gpusUsed).put("vacant", gpusVacant));
    }
  }
}
