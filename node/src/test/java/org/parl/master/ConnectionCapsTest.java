package org.parl.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.parl.limits.LimitSettings;

/** Each cap refuses the connection past it, says which cap and where to raise it, and frees up on close. */
class ConnectionCapsTest {

  @Test
  void perAddressTotalAndUnauthenticatedCaps() {
    ConnectionCaps caps = new ConnectionCaps(new LimitSettings(2, 3, 2, 10));
    assertTrue(caps.admit("a").isEmpty());
    caps.authenticated();
    assertTrue(caps.admit("a").isEmpty());
    caps.authenticated();
    assertTrue(caps.admit("a").orElseThrow().contains("gateway.maxConnectionsPerAddress in config/parl-limits.properties"));
    assertTrue(caps.admit("b").isEmpty());
    assertTrue(caps.admit("c").orElseThrow().contains("gateway.maxConnections "));
    caps.closed("a", true);
    assertTrue(caps.admit("c").isEmpty());
    caps.closed("a", true);
    assertTrue(caps.admit("d").orElseThrow().contains("gateway.maxUnauthenticated"));
    caps.closed("b", false);
    assertTrue(caps.admit("d").isEmpty());
    assertEquals(3, caps.refused());
  }
}
