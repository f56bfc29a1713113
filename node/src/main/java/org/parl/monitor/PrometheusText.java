package org.parl.monitor;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.parl.limits.LimitSettings;

/**
 * Writes the cluster view ({@link ClusterView}) in the Prometheus text exposition format 0.0.4:
 * one {@code # HELP} and {@code # TYPE} line per metric family, then its samples. Plain Java.
 */
public final class PrometheusText {

  /** The content type of {@code GET /metrics}. */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final StringBuilder out = new StringBuilder(4096);

  private PrometheusText() {}

  public static String format(JsonObject view) {
    return format(view, LimitSettings.DEFAULTS);
  }

  /**
   * The view, what each capped resource uses next to its cap as in effect where it is enforced (docs/contract.md
   * §8), then the caps of {@code limits} as {@code parl_limit{name="KEY"}}.
   *
   * @param limits the caps read where this monitor runs, also the per-client cap when the master
   *     has not published its own
   */
  public static String format(JsonObject view, LimitSettings limits) {
    PrometheusText p = new PrometheusText();
    p.write(view);
    p.use(view, limits);
    p.limits(limits);
    return p.out.toString();
  }

  /** Current use of each capped resource, with its cap, per node where it belongs. */
  private void use(JsonObject view, LimitSettings fallback) {
    List<JsonObject> workers = objects(view.getJsonArray("workers"));
    diskFamily(workers, "parl_worker_job_logs_bytes", "logBytes",
        "Bytes a worker's job logs take on disk, rotated parts and logs of ended jobs included.");
    diskFamily(workers, "parl_worker_job_log_largest_bytes", "largestLogBytes",
        "Size of a worker's largest live job log, rotated when it passes parl_worker_job_log_limit_bytes.");
    diskFamily(workers, "parl_worker_job_log_limit_bytes", "logMaxBytes",
        "A worker's cap on one job's log (jobs.logMaxBytes where the worker runs).");
    diskFamily(workers, "parl_worker_code_cache_bytes", "codeCacheBytes",
        "Bytes of shipped code in the cache of a worker's host.");
    diskFamily(workers, "parl_worker_code_cache_limit_bytes", "codeCacheMaxBytes",
        "A worker host's cap on its shipped-code cache (jobs.codeCacheMaxBytes where the worker runs).");

    JsonObject totals = view.getJsonObject("totals");
    JsonObject gateway = view.getJsonObject("gateway");
    JsonObject masterLimits = gateway == null ? null : gateway.getJsonObject("limits");
    gauge("parl_pending_requests_per_client_max", "The most actor requests one client has waiting for resources.");
    sample("parl_pending_requests_per_client_max", List.of(), totals.getInteger("mostWaitingOfOneClient", 0));
    gauge("parl_pending_requests_per_client_limit", "The master's cap on one client's waiting requests (jobs.maxWaitingPerClient).");
    Object perClient = masterLimits == null ? null : masterLimits.getValue("maxWaitingPerClient");
    sample("parl_pending_requests_per_client_limit", List.of(),
        perClient instanceof Number n ? n.longValue() : fallback.maxWaitingPerClient());
    if (gateway == null || masterLimits == null) {
      return;
    }
    gatewayPair("parl_gateway_connections", "Connections open at the master's gateway.", gateway.getValue("open"),
        "The master's cap on gateway connections (gateway.maxConnections).", masterLimits.getValue("maxConnections"));
    gatewayPair("parl_gateway_connections_per_address_max", "The most gateway connections open from one peer address.",
        gateway.getValue("mostFromOneAddress"), "The master's cap on gateway connections from one address "
            + "(gateway.maxConnectionsPerAddress).", masterLimits.getValue("maxConnectionsPerAddress"));
    gatewayPair("parl_gateway_connections_authenticating", "Gateway connections that have not yet authenticated.",
        gateway.getValue("authenticating"), "The master's cap on gateway connections authenticating at once "
            + "(gateway.maxUnauthenticated).", masterLimits.getValue("maxUnauthenticated"));
    if (gateway.getValue("refused") instanceof Number n) {
      counter("parl_gateway_connections_refused_total", "Gateway connections refused by a cap since the master started.");
      sample("parl_gateway_connections_refused_total", List.of(), n.longValue());
    }
  }

  private void diskFamily(List<JsonObject> workers, String metric, String field, String help) {
    gauge(metric, help);
    for (JsonObject w : workers) {
      if (w.getJsonObject("disk") != null && w.getJsonObject("disk").getValue(field) instanceof Number n) {
        sample(metric, labels(w), n.longValue());
      }
    }
  }

  /** A gauge of the gateway and its cap, as {@code NAME} and {@code NAME_limit}, if both are known. */
  private void gatewayPair(String metric, String help, Object value, String capHelp, Object cap) {
    String capMetric = metric.endsWith("_max") ? metric.substring(0, metric.length() - 4) + "_limit" : metric + "_limit";
    if (value instanceof Number v && cap instanceof Number c) {
      gauge(metric, help);
      sample(metric, List.of(), v.longValue());
      gauge(capMetric, capHelp);
      sample(capMetric, List.of(), c.longValue());
    }
  }

  private void limits(LimitSettings l) {
    gauge("parl_limit", "A cap of config/parl-limits.properties, as read where this monitor runs.");
    sample("parl_limit", List.of("name", "gateway.maxConnectionsPerAddress"), l.maxConnectionsPerAddress());
    sample("parl_limit", List.of("name", "gateway.maxConnections"), l.maxConnections());
    sample("parl_limit", List.of("name", "gateway.maxUnauthenticated"), l.maxUnauthenticated());
    sample("parl_limit", List.of("name", "jobs.maxWaitingPerClient"), l.maxWaitingPerClient());
    sample("parl_limit", List.of("name", "jobs.logMaxBytes"), l.logMaxBytes());
    sample("parl_limit", List.of("name", "jobs.logKeepHours"), l.logKeepHours());
    sample("parl_limit", List.of("name", "jobs.logKeepEnded"), l.logKeepEnded());
    sample("parl_limit", List.of("name", "jobs.codeCacheMaxBytes"), l.codeCacheMaxBytes());
  }

  private void write(JsonObject view) {
    JsonObject totals = view.getJsonObject("totals");
    JsonArray workers = view.getJsonArray("workers");
    boolean gpu = !"cpu".equals(view.getString("clusterType"));

    gauge("parl_jobcenter_up", "1 when the JobCenter answered the monitor's last query, else 0.");
    sample("parl_jobcenter_up", List.of(), "ok".equals(view.getString("jobCenter")) ? 1 : 0);
    gauge("parl_workers", "Workers in the pool.");
    sample("parl_workers", List.of(), totals.getInteger("workers"));
    gauge("parl_clients", "Connected client programs.");
    sample("parl_clients", List.of(), totals.getInteger("clients"));
    gauge("parl_jobs", "Live jobs (remote actors) holding resources.");
    sample("parl_jobs", List.of(), totals.getInteger("jobs"));
    gauge("parl_pending_requests", "Actor requests waiting for resources.");
    sample("parl_pending_requests", List.of(), totals.getInteger("waiting"));
    gauge("parl_pending_requests_by_reason", "Actor requests waiting for resources, by the kind of constraint that stops them.");
    JsonObject byReason = totals.getJsonObject("waitingByReason", new JsonObject());
    for (String reason : byReason.fieldNames().stream().sorted().toList()) {
      sample("parl_pending_requests_by_reason", List.of("reason", reason), byReason.getInteger(reason));
    }
    gauge("parl_pending_longest_wait_seconds", "How long the oldest waiting actor request has waited.");
    sample("parl_pending_longest_wait_seconds", List.of(), totals.getLong("longestWaitMs") / 1000.0);
    if (totals.getValue("jobsStarted") instanceof Number started && totals.getValue("jobsLost") instanceof Number lost) {
      // absent while the JobCenter does not answer: a made-up 0 would read as a counter reset
      counter("parl_jobs_started_total", "Jobs (remote actors) the active JobCenter started since it became active.");
      sample("parl_jobs_started_total", List.of(), started.longValue());
      counter("parl_jobs_lost_total", "Jobs the active JobCenter saw lost (their process or worker died) since it became active.");
      sample("parl_jobs_lost_total", List.of(), lost.longValue());
    }

    gauge("parl_worker_cpus", "CPUs a worker lends, by state (vacant or used).");
    for (JsonObject w : objects(workers)) {
      JsonObject c = w.getJsonObject("cpus");
      sample("parl_worker_cpus", labels(w, "state", "vacant"), c.getInteger("vacant"));
      sample("parl_worker_cpus", labels(w, "state", "used"), c.getInteger("used"));
    }
    gauge("parl_worker_gpus", "GPUs a worker lends, by state (vacant or used).");
    for (JsonObject w : objects(workers)) {
      JsonObject g = w.getJsonObject("gpus");
      sample("parl_worker_gpus", labels(w, "state", "vacant"), g.getJsonArray("vacant").size());
      sample("parl_worker_gpus", labels(w, "state", "used"), g.getJsonArray("used").size());
    }
    gauge("parl_worker_gpus_out_of_service", "GPUs of a worker that no job holds and that are drained or quarantined.");
    for (JsonObject w : objects(workers)) {
      sample("parl_worker_gpus_out_of_service", labels(w), ClusterView.array(w.getJsonObject("gpus"), "outOfService").size());
    }
    gauge("parl_worker_jobs", "Live jobs on a worker.");
    for (JsonObject w : objects(workers)) {
      sample("parl_worker_jobs", labels(w), w.getJsonArray("jobs").size());
    }
    counter("parl_worker_calls_served_total", "Actor method calls served by a worker's jobs since it started.");
    for (JsonObject w : objects(workers)) {
      sample("parl_worker_calls_served_total", labels(w), w.getLong("callsServed", 0L));
    }
    gauge("parl_worker_load1", "One-minute load average of a worker's host.");
    for (JsonObject w : objects(workers)) {
      if (w.getValue("load") instanceof Number n) {
        sample("parl_worker_load1", labels(w), n.doubleValue());
      }
    }
    gauge("parl_worker_memory_used_bytes", "Memory in use on a worker's host.");
    for (JsonObject w : objects(workers)) {
      if (w.getJsonObject("memory") != null && w.getJsonObject("memory").getValue("usedMb") instanceof Number n) {
        sample("parl_worker_memory_used_bytes", labels(w), n.longValue() * 1024 * 1024);
      }
    }
    if (gpu) {
      gpuFamilies(workers);
    }
  }

  private void gpuFamilies(JsonArray workers) {
    gauge("parl_gpu_utilization_percent", "GPU utilisation reported by nvidia-smi.");
    forEachGpu(workers, "utilization", "parl_gpu_utilization_percent", 1);
    gauge("parl_gpu_memory_used_bytes", "GPU memory in use reported by nvidia-smi.");
    forEachGpu(workers, "memoryUsedMb", "parl_gpu_memory_used_bytes", 1024 * 1024);
    gauge("parl_gpu_memory_total_bytes", "GPU memory size reported by nvidia-smi.");
    forEachGpu(workers, "memoryTotalMb", "parl_gpu_memory_total_bytes", 1024 * 1024);
    gauge("parl_gpu_share_used_ratio", "The part of a GPU held by jobs: 1 when held whole, the sum of the shares placed on it otherwise.");
    forEachGpu(workers, "shareUsed", "parl_gpu_share_used_ratio", 0);
    gauge("parl_gpu_memory_budget_bytes", "GPU memory budgets placed on a GPU, summed.");
    forEachGpu(workers, "memoryBudgetMb", "parl_gpu_memory_budget_bytes", 1024 * 1024);
    gauge("parl_gpu_out_of_service", "1 when a GPU is drained or quarantined, by state.");
    for (JsonObject w : objects(workers)) {
      for (JsonObject d : objects(w.getJsonArray("gpuDevices"))) {
        String state = d.getString("state", "");
        if (state.equals("drained") || state.equals("quarantined")) {
          sample("parl_gpu_out_of_service", labels(w, "gpu", String.valueOf(d.getValue("index")), "state", state), 1);
        }
      }
    }
  }

  private void forEachGpu(JsonArray workers, String field, String metric, long scale) {
    for (JsonObject w : objects(workers)) {
      for (JsonObject d : objects(w.getJsonArray("gpuDevices"))) {
        if (d.getValue(field) instanceof Number n) {
          List<String> l = labels(w, "gpu", String.valueOf(d.getValue("index")), "name", String.valueOf(d.getValue("name")));
          if (scale == 0) { // thousandths of a GPU
            sample(metric, l, n.longValue() / 1000.0);
          } else if (scale == 1) {
            sample(metric, l, n.doubleValue());
          } else {
            sample(metric, l, n.longValue() * scale);
          }
        }
      }
    }
  }

  private void gauge(String name, String help) {
    family(name, help, "gauge");
  }

  private void counter(String name, String help) {
    family(name, help, "counter");
  }

  private void family(String name, String help, String type) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private void sample(String name, List<String> labels, long value) {
    start(name, labels).append(value).append('\n');
  }

  private void sample(String name, List<String> labels, double value) {
    start(name, labels).append(number(value)).append('\n');
  }

  private StringBuilder start(String name, List<String> labels) {
    out.append(name);
    if (!labels.isEmpty()) {
      out.append('{');
      for (int i = 0; i < labels.size(); i += 2) {
        if (i > 0) {
          out.append(',');
        }
        out.append(labels.get(i)).append("=\"").append(escape(labels.get(i + 1))).append('"');
      }
      out.append('}');
    }
    return out.append(' ');
  }

  private static List<String> labels(JsonObject worker, String... more) {
    List<String> l = new ArrayList<>(List.of("worker", String.valueOf(worker.getString("id")),
        "hostname", String.valueOf(worker.getString("hostname"))));
    l.addAll(List.of(more));
    return l;
  }

  private static List<JsonObject> objects(JsonArray a) {
    List<JsonObject> l = new ArrayList<>();
    if (a != null) {
      for (Object o : a) {
        if (o instanceof JsonObject j) {
          l.add(j);
        }
      }
    }
    return l;
  }

  /** Label values escape backslash, double quote and line feed. */
  static String escape(String v) {
    return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  static String number(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return String.valueOf((long) v);
    }
    return String.format(Locale.ROOT, "%s", v);
  }
}
