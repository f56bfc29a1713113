package org.parl.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.parl.limits.GatewayUse;
import org.parl.limits.LimitSettings;

class PrometheusTextTest {

  /** name{labels} value, as the text format allows. */
  private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*\\})? (\\S+)");

  private final String text = PrometheusText.format(ClusterView.build(Fixtures.gpuCluster(), "http://x", Fixtures.NOW));

  @Test
  void everyLineIsWellFormedAndEveryFamilyDeclared() {
    Set<String> declared = new HashSet<>();
    Set<String> typed = new HashSet<>();
    for (String line : text.split("\n")) {
      if (line.startsWith("# HELP ")) {
        declared.add(line.split(" ")[2]);
      } else if (line.startsWith("# TYPE ")) {
        String[] p = line.split(" ");
        assertTrue(p[3].equals("gauge") || p[3].equals("counter"), line);
        typed.add(p[2]);
      } else {
        Matcher m = SAMPLE.matcher(line);
        assertTrue(m.matches(), "not a sample: " + line);
        assertTrue(typed.contains(m.group(1)), "sample before its TYPE: " + line);
        Double.parseDouble(m.group(3).replace("+Inf", "Infinity"));
      }
    }
    assertEquals(declared, typed);
    assertTrue(text.endsWith("\n"));
  }

  @Test
  void jobCountersAreLeftOutWhileTheJobCenterDoesNotAnswer() {
    ClusterState unreachable = new ClusterState(new io.vertx.core.json.JsonObject().put("clusterType", "cpu"),
        java.util.Map.of("w-1", Fixtures.cpuWorker("w-1", "n1", 4, 0, java.util.List.of())), java.util.Map.of(), java.util.Map.of(),
        java.util.Map.of(), null, null);
    String out = PrometheusText.format(ClusterView.build(unreachable, "http://x", Fixtures.NOW));
    assertTrue(out.contains("parl_jobcenter_up 0\n"), out);
    assertFalse(out.contains("parl_jobs_started_total"), "a made-up 0 would read as a counter reset");
    assertFalse(out.contains("parl_jobs_lost_total"));
  }

  @Test
  void valuesMatchTheView() {
    Map<String, String> s = samples();
    assertEquals("2", s.get("parl_workers"));
    assertEquals("2", s.get("parl_clients"));
    assertEquals("3", s.get("parl_jobs"));
    assertEquals("2", s.get("parl_pending_requests"));
    assertEquals("1.5", s.get("parl_pending_longest_wait_seconds"));
    assertEquals("1", s.get("parl_jobcenter_up"));
    assertEquals("9", s.get("parl_jobs_started_total"));
    assertEquals("1", s.get("parl_jobs_lost_total"));
    assertEquals("1", s.get("parl_worker_gpus{worker=\"w-a\",hostname=\"host-w-a\",state=\"vacant\"}"));
    assertEquals("3", s.get("parl_worker_gpus{worker=\"w-a\",hostname=\"host-w-a\",state=\"used\"}"));
    assertEquals("1", s.get("parl_worker_gpus{worker=\"w-b\",hostname=\"host-w-b\",state=\"used\"}"));
    assertEquals("0", s.get("parl_worker_cpus{worker=\"w-b\",hostname=\"host-w-b\",state=\"vacant\"}"));
    assertEquals("2", s.get("parl_worker_jobs{worker=\"w-a\",hostname=\"host-w-a\"}"));
    assertEquals("17", s.get("parl_worker_calls_served_total{worker=\"w-a\",hostname=\"host-w-a\"}"));
    assertEquals("97", s.get("parl_gpu_utilization_percent{worker=\"w-a\",hostname=\"host-w-a\",gpu=\"1\",name=\"NVIDIA Fake H100\"}"));
    assertEquals(String.valueOf(20_000L * 1024 * 1024),
        s.get("parl_gpu_memory_used_bytes{worker=\"w-a\",hostname=\"host-w-a\",gpu=\"1\",name=\"NVIDIA Fake H100\"}"));
  }

  @Test
  void labelValuesAreEscaped() {
    assertEquals("a\\\\b\\\"c\\nd", PrometheusText.escape("a\\b\"c\nd"));
    assertEquals("3", PrometheusText.number(3.0));
    assertEquals("0.25", PrometheusText.number(0.25));
    assertEquals("NaN", PrometheusText.number(Double.NaN));
  }

  private Map<String, String> samples() {
    return samples(text);
  }

  private static Map<String, String> samples(String text) {
    Map<String, String> out = new HashMap<>();
    for (String line : text.split("\n")) {
      if (!line.startsWith("#")) {
        int sp = line.lastIndexOf(' ');
        out.put(line.substring(0, sp), line.substring(sp + 1));
      }
    }
    return out;
  }

  @Test
  void theCapsAreReported() {
    String withCaps = PrometheusText.format(ClusterView.build(Fixtures.gpuCluster(), "http://x", Fixtures.NOW),
        new LimitSettings(3, 1024, 64, 1000));
    assertTrue(withCaps.contains("# TYPE parl_limit gauge\n"), withCaps);
    assertTrue(withCaps.contains("parl_limit{name=\"gateway.maxConnectionsPerAddress\"} 3\n"), withCaps);
    assertTrue(withCaps.contains("parl_limit{name=\"jobs.logMaxBytes\"} 67108864\n"), withCaps);
  }

  /** A cluster whose worker w-a published its disk use and whose gateway published its connections. */
  private static String withUse() {
    ClusterState s = Fixtures.gpuCluster();
    Map<String, JsonObject> stats = new HashMap<>(s.stats());
    stats.put("w-a", stats.get("w-a").copy().put("disk", new JsonObject().put("logBytes", 5000L).put("largestLogBytes", 3000L)
        .put("logMaxBytes", 1L << 20).put("codeCacheBytes", 7000L).put("codeCacheMaxBytes", 2L << 20)));
    JsonObject queue = s.queue().copy().put("mostWaitingOfOneClient", 2);
    JsonObject gateway = new GatewayUse(9, 4, 1, 6, new LimitSettings(64, 1024, 32, 500)).toJson();
    ClusterState used = new ClusterState(s.cluster(), s.workers(), s.jobs(), s.clients(), stats, queue, s.liveNodes(), gateway);
    return PrometheusText.format(ClusterView.build(used, "http://x", Fixtures.NOW), LimitSettings.DEFAULTS);
  }

  @Test
  void theUseOfEachCapIsReportedNextToTheCapWhereItIsEnforced() {
    String t = withUse();
    Map<String, String> s = samples(t);
    String wa = "{worker=\"w-a\",hostname=\"host-w-a\"}";
    assertEquals("5000", s.get("parl_worker_job_logs_bytes" + wa));
    assertEquals("3000", s.get("parl_worker_job_log_largest_bytes" + wa));
    assertEquals(String.valueOf(1L << 20), s.get("parl_worker_job_log_limit_bytes" + wa));
    assertEquals("7000", s.get("parl_worker_code_cache_bytes" + wa));
    assertEquals(String.valueOf(2L << 20), s.get("parl_worker_code_cache_limit_bytes" + wa));
    assertEquals(null, s.get("parl_worker_job_logs_bytes{worker=\"w-b\",hostname=\"host-w-b\"}"), "w-b published no disk use");
    assertEquals("2", s.get("parl_pending_requests_per_client_max"));
    assertEquals("500", s.get("parl_pending_requests_per_client_limit"), "the master's cap, not the monitor's");
    assertEquals("9", s.get("parl_gateway_connections"));
    assertEquals("1024", s.get("parl_gateway_connections_limit"));
    assertEquals("4", s.get("parl_gateway_connections_per_address_max"));
    assertEquals("64", s.get("parl_gateway_connections_per_address_limit"));
    assertEquals("1", s.get("parl_gateway_connections_authenticating"));
    assertEquals("32", s.get("parl_gateway_connections_authenticating_limit"));
    assertEquals("6", s.get("parl_gateway_connections_refused_total"));
    assertTrue(t.contains("# TYPE parl_gateway_connections_refused_total counter\n"), t);
    assertTrue(t.contains("# HELP parl_worker_job_logs_bytes "), t);
  }

  @Test
  void withoutTheGatewaysFiguresThePerClientCapIsTheMonitors() {
    Map<String, String> s = samples();
    assertEquals("0", s.get("parl_pending_requests_per_client_max"));
    assertEquals("1000", s.get("parl_pending_requests_per_client_limit"));
    assertEquals(null, s.get("parl_gateway_connections"));
  }
}
