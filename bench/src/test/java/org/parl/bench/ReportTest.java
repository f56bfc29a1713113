package org.parl.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Ratios far below 1 (the scale rows') stay readable in the table and keep their digits in the JSON. */
class ReportTest {

  @Test
  void smallRatiosKeepTheirSignificantDigits() {
    Report r = new Report();
    r.add(new Metric("scale_1000w_alloc_release_per_s", "allocate+release/s, 1000 simulated workers", 578.8, "/s", null,
        Target.atLeast(5_000, ">= 5 000"), 578.8 / 146_562.5));
    r.add(new Metric("noop_p50_us", "noop() round trip, p50", 17.4, "µs", null, null, 1.267));
    JsonObject metrics = r.json().getJsonObject("metrics");
    assertEquals(0.003949, metrics.getDouble("scale_1000w_alloc_release_per_s_vs_tcp"), 1e-9);
    assertEquals(1.267, metrics.getDouble("noop_p50_us_vs_tcp"), 1e-9);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    r.print(new PrintStream(out, true, StandardCharsets.UTF_8));
    String table = out.toString(StandardCharsets.UTF_8);
    assertTrue(table.contains("0.0039x"), table);
    assertTrue(table.contains("1.27x"), table);
  }
}
