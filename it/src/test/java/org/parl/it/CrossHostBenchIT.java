package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.parl.it.hosts.Required;

/**
 * {@code parl bench --cross-host --quick}: the rows across hosts are measured between two network
 * namespaces the benchmark makes and removes itself, each with the plain-TCP echo between the same
 * two hosts and issue 12's ratio target, and nothing of the bed is left afterwards. Only a generous
 * time bound; the figures are not asserted.
 */
class CrossHostBenchIT {

  private static final Duration GENEROUS = Duration.ofMinutes(5);

  @Test
  void rowsAcrossHostsAreMeasuredAndTheBedIsRemoved() throws IOException {
    Path home = Files.createTempDirectory("parl-cross-bench-it");
    try (ParlProcess bench = ParlProcess.start(ParlProcess.env(home), "bench", "--cross-host", "--quick")) {
      int code = bench.awaitExit(GENEROUS);
      String out = bench.output();
      assertEquals(0, code, out);
      Required.that(!out.contains("Rows across hosts: not measured"),
          "network namespaces for the rows across hosts (root and iproute2, which bin/setup-packages installs)");
      String json = out.lines().filter(l -> l.startsWith("{\"parlBench\"")).reduce((a, b) -> b).orElseThrow();
      JsonObject metrics = new JsonObject(json).getJsonObject("metrics");
      for (String size : List.of("1mb", "8mb")) {
        assertTrue(metrics.getDouble("tcp_" + size + "_p50_ms_cross_host") > 0, json);
        assertTrue(metrics.getDouble("echo_" + size + "_p50_ms_cross_host") > 0, json);
        assertTrue(metrics.getDouble("echo_" + size + "_p50_ms_cross_host_vs_tcp") > 0, json);
        assertTrue(new JsonObject(json).getJsonObject("targetsMet").containsKey("echo_" + size + "_p50_ms_cross_host"), json);
      }
      assertTrue(metrics.getDouble("noop_p50_us_cross_host") > 0, json);
      String owner = "parlt-" + Long.toString(bench.pid(), 36) + "-";
      assertTrue(out.contains("measuring across hosts"), out);
      assertEquals(List.of(), lines("ip", "netns", "list").stream().filter(n -> n.startsWith(owner)).toList(),
          "the bench removed its namespaces");
      assertEquals(List.of(), lines("ip", "-o", "link", "show").stream().filter(n -> n.contains(owner)).toList(),
          "the bench removed its bridge and veths");
    }
  }

  private static List<String> lines(String... cmd) throws IOException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    return new String(p.getInputStream().readAllBytes()).lines().toList();
  }
}
