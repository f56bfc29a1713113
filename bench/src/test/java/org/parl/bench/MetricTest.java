package org.parl.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** A row crosses from a probe process to the report as JSON unchanged, target and ratio included. */
class MetricTest {

  @Test
  void aRowWithARatioTargetSurvivesJsonAndIsJudgedByItsRatio() {
    Metric m = new Metric("echo_8mb_p50_ms_cross_host", "float[] echo 8 MB, p50, across hosts", 15.25, "ms", null,
        Target.ratioAtMost(1.3, "<= 1.3x TCP"), 2.36);
    Metric back = Metric.of(new JsonObject(m.json().encode()));
    assertEquals(m, back);
    assertFalse(back.met(), "2.36x is over 1.3x");
    assertTrue(new Metric("k", "n", 7.0, "ms", null, Target.ratioAtMost(1.3, "<= 1.3x TCP"), 1.2).met());
    assertFalse(new Metric("k", "n", 7.0, "ms", null, Target.ratioAtMost(1.3, "<= 1.3x TCP"), null).met(),
        "a ratio target without a ratio is not met");
  }

  @Test
  void aRowWithoutTargetOrRatioSurvivesJson() {
    Metric m = new Metric("tcp_8mb_p50_ms_cross_host", "plain TCP echo 8 MB, p50 (baseline), across hosts", 6.47, "ms",
        "16.9 ms", null, null);
    Metric back = Metric.of(new JsonObject(m.json().encode()));
    assertEquals(m, back);
    assertNull(back.met());
  }
}
