package org.parl.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The limits file: defaults for what it leaves out, one sentence for what it gets wrong. */
class LimitSettingsTest {

  @Test
  void theShippedFileHoldsTheDefaults() {
    assertEquals(LimitSettings.DEFAULTS, LimitSettings.load());
  }

  @Test
  void aKeyOverridesItsDefaultOnly() {
    Properties p = new Properties();
    p.setProperty("gateway.maxConnectionsPerAddress", " 3 ");
    LimitSettings s = LimitSettings.of(p);
    assertEquals(3, s.maxConnectionsPerAddress());
    assertEquals(LimitSettings.DEFAULTS.maxConnections(), s.maxConnections());
  }

  @Test
  void badValuesAreNamed() {
    Properties p = new Properties();
    p.setProperty("jobs.maxWaitingPerClient", "lots");
    assertTrue(assertThrows(IllegalArgumentException.class, () -> LimitSettings.of(p)).getMessage()
        .contains("jobs.maxWaitingPerClient"));
    p.setProperty("jobs.maxWaitingPerClient", "0");
    assertTrue(assertThrows(IllegalArgumentException.class, () -> LimitSettings.of(p)).getMessage()
        .contains("at least 1"));
  }
}
