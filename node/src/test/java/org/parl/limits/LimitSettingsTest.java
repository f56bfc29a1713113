package org.parl.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The limits file: defaults for what it leaves out, one sentence for what it gets wrong. */
class LimitSettingsTest {

  @AfterEach
  void forgetOverrides() {
    LimitSettings.clearOverrides();
  }

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

  @Test
  void anOverrideWinsOverTheFileForItsKeyOnly() {
    LimitSettings.override("gateway.maxConnectionsPerAddress", 7);
    LimitSettings.override("jobs.logMaxBytes", 5L << 30);
    LimitSettings s = LimitSettings.load();
    assertEquals(7, s.maxConnectionsPerAddress());
    assertEquals(5L << 30, s.logMaxBytes());
    assertEquals(LimitSettings.DEFAULTS.maxConnections(), s.maxConnections());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> LimitSettings.override("gateway.nope", 1)).getMessage()
        .contains("no such limit: gateway.nope"));
  }
}
