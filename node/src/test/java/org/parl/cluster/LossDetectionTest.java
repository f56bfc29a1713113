package org.parl.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.hazelcast.config.Config;
import org.junit.jupiter.api.Test;

class LossDetectionTest {

  @Test
  void theShippedSettingsGiveAFenceAndALeaseThatCoversIt() {
    LossDetection shipped = LossDetection.of(HazelcastSettings.build(null, "parl-test", "127.0.0.1", null, "test", false));
    assertEquals(new LossDetection(5_000, 1_000), shipped);
    long fence = shipped.fenceAfterCutMs(1_000);
    assertEquals(8_000, fence, "5 s of silence, a beat to notice it, a beat the last heartbeat may be early, 1 s to stop");
    long lease = shipped.leaseAfterDropMs(fence);
    assertEquals(3_000 + LossDetection.DRIFT_MARGIN_MS, lease);
    // the earliest drop after a cut is one beat before maxSilence; the lease then ends after the latest fence
    long earliestDrop = shipped.maxSilenceMs() - shipped.heartbeatMs();
    assertEquals(fence + LossDetection.DRIFT_MARGIN_MS, earliestDrop + shipped.heartbeatMs() + lease);
  }

  @Test
  void aMasterThatWaitsLongerForSilenceHoldsTheLeaseShorter() {
    Config slow = new Config().setProperty("hazelcast.max.no.heartbeat.seconds", "60")
        .setProperty("hazelcast.heartbeat.interval.seconds", "5");
    LossDetection master = LossDetection.of(slow);
    assertEquals(new LossDetection(60_000, 5_000), master);
    assertEquals(LossDetection.DRIFT_MARGIN_MS, master.leaseAfterDropMs(8_000), "a worker fenced long before the drop");
    assertEquals(LossDetection.DRIFT_MARGIN_MS + 11_000, master.leaseAfterDropMs(71_000));
  }

  @Test
  void aDetectorNeedsPositiveTimes() {
    assertEquals("the failure detector's times must be positive, not 0 ms of silence and a heartbeat every 1000 ms",
        assertThrows(IllegalArgumentException.class, () -> new LossDetection(0, 1_000)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> new LossDetection(5_000, -1));
  }
}
