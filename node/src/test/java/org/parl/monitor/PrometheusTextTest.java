package org.parl.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
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
  void valuesMatchTheView() {
    Map<String, String> s = samples();
    assertEquals("2", s.get("parl_workers"));
    assertEquals("2", s.get("parl_clients"));
    assertEquals("3", s.get("parl_jobs"));
    assertEquals("2", s.get("parl_pending_requests"));
    assertEquals("1.5", s.get("parl_pending_longest_wait_seconds"));
    assertEquals("1", s.get("parl_jobcenter_up"));
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
}
