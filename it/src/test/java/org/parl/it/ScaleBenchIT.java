package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code parl bench --scale} at a tiny size, so that the simulation cannot rot: 3 simulated workers
 * (member processes joined with the bench's own token), 50 allocations through the gateway, each
 * released; the bench then reads the JobCenter's state over the event bus and fails unless the pool
 * is whole. Only a generous time bound; its figures are not asserted.
 */
class ScaleBenchIT {

  private static final Duration GENEROUS = Duration.ofMinutes(5);

  @Test
  void everyAllocationIsReleasedAndThePoolIsWhole() throws IOException {
    Path home = Files.createTempDirectory("parl-scale-it");
    try (ParlProcess bench = ParlProcess.start(ParlProcess.env(home), "bench", "--scale", "--scale-workers", "3",
        "--scale-allocations", "50", "--scale-connections", "2")) {
      int code = bench.awaitExit(GENEROUS);
      String out = bench.output();
      assertEquals(0, code, out);
      assertTrue(out.contains("scale, 3 workers: 50 allocate+release cycles"), out);
      assertTrue(out.contains("the JobCenter held 3 workers, 0 jobs, 0 waiting requests, 0 CPUs in use, invariant ok"), out);
      String json = out.lines().filter(l -> l.startsWith("{\"parlBench\"")).reduce((a, b) -> b).orElseThrow();
      JsonObject metrics = new JsonObject(json).getJsonObject("metrics");
      assertTrue(metrics.getDouble("scale_3w_alloc_release_per_s") > 0, json);
      assertTrue(metrics.getDouble("scale_3w_cycle_p99_ms") >= metrics.getDouble("scale_3w_cycle_p50_ms"), json);
    }
  }
}
