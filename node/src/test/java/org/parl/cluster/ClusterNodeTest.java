package org.parl.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.net.PfxOptions;
import org.junit.jupiter.api.Test;
import org.parl.internal.security.ClusterToken;
import org.parl.tls.ClusterKeys;

class ClusterNodeTest {

  private static final ClusterToken TOKEN = ClusterToken.of("c".repeat(64), "test");

  @Test
  void theEventBusIsTlsWithClientAuthenticationFromTheToken() {
    ClusterKeys keys = ClusterKeys.derive(TOKEN);
    EventBusOptions o = ClusterNode.eventBusOptions("127.0.0.1", keys);
    assertTrue(o.isSsl());
    assertEquals(ClientAuth.REQUIRED, o.getClientAuth());
    assertEquals(keys.keyCert().getValue(), ((PfxOptions) o.getKeyCertOptions()).getValue());
    assertEquals(keys.trust().getValue(), ((PfxOptions) o.getTrustOptions()).getValue());
    assertEquals(false, o.isTrustAll());
    assertEquals("127.0.0.1", o.getHost());
    assertEquals("127.0.0.1", o.getClusterPublicHost());
    assertEquals(java.util.Set.of("TLSv1.3"), o.getEnabledSecureTransportProtocols(), "parl to parl: TLS 1.3 only");
  }

  @Test
  void theClusterNameNeedsTheTokenAndDiffersPerMasterStart() {
    String id = ClusterName.newInstanceId();
    String name = ClusterName.derive(TOKEN, id);
    assertTrue(name.matches("parl-[0-9a-f]{32}"), name);
    assertEquals(name, ClusterName.derive(ClusterToken.of("c".repeat(64), "elsewhere"), id), "any token holder derives it");
    assertNotEquals(name, ClusterName.derive(TOKEN, ClusterName.newInstanceId()), "two masters never share one");
    assertNotEquals(name, ClusterName.derive(ClusterToken.of("d".repeat(64), "test"), id), "another token gives another");
  }
}
