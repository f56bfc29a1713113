package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.cluster.Member;
import io.vertx.core.Promise;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.net.PfxOptions;
import io.vertx.core.spi.cluster.NodeInfo;
import java.io.ByteArrayInputStream;
import java.net.InetSocketAddress;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.cluster.Addresses;
import org.parl.internal.net.HostPort;
import org.parl.internal.security.ClusterToken;
import org.parl.tls.ClusterKeys;

/**
 * TLS as tight as the parties allow: the gateway and the event bus (parl to parl) speak TLS 1.3
 * only; the monitor (browsers, curl, Prometheus) TLS 1.2 or 1.3 with AEAD suites only. Asserted with
 * a JDK client that offers only what must be refused, and with openssl for TLS 1.1 and 1.0, which
 * the JDK no longer offers at all.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TlsVersionsIT {

  private static final List<String> CBC_SUITES = List.of(
      "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384",
      "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA",
      "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256", "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384",
      "TLS_RSA_WITH_AES_128_CBC_SHA256", "TLS_RSA_WITH_AES_256_CBC_SHA256", "TLS_RSA_WITH_AES_128_CBC_SHA");
  private static final List<String> TLS12_AEAD = List.of("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256");

  private TestCluster cluster;
  private ClusterKeys keys;
  private HostPort monitor;
  private HostPort gateway;

  @BeforeAll
  void start() throws Exception {
    cluster = TestCluster.start(0, "--cpus", "1");
    String url = cluster.master.awaitLine("monitor: (https://[^/\\s]+)/login", TestCluster.START).group(1);
    monitor = HostPort.parse(url.substring("https://".length()));
    gateway = HostPort.parse(cluster.address);
    keys = ClusterKeys.derive(ClusterToken.of(cluster.token(), "test"));
  }

  @AfterAll
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void theMonitorRefusesCbcSuitesAndAcceptsTls12WithAead() throws Exception {
    assertThrows(SSLHandshakeException.class, () -> handshake(monitor, "TLSv1.2", CBC_SUITES, null));
    assertEquals("TLSv1.2 TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", handshake(monitor, "TLSv1.2", TLS12_AEAD, null));
    assertEquals("TLSv1.3", handshake(monitor, "TLSv1.3", null, null).split(" ")[0]);
  }

  @Test
  void noPartySpeaksTls11Or10() throws Exception {
    for (HostPort at : List.of(monitor, gateway)) {
      for (String old : List.of("-tls1_1", "-tls1")) {
        String said = openssl(at, old);
        assertTrue(said.contains("alert protocol version"), at + " " + old + ":\n" + said);
        assertTrue(!said.contains("Cipher is") || said.contains("Cipher is (NONE)"), at + " " + old + ":\n" + said);
      }
    }
  }

  @Test
  void theGatewaySpeaksTls13Only() throws Exception {
    assertThrows(SSLHandshakeException.class, () -> handshake(gateway, "TLSv1.2", null, null));
    assertEquals("TLSv1.3", handshake(gateway, "TLSv1.3", null, null).split(" ")[0]);
  }

  @Test
  void theEventBusSpeaksTls13Only() throws Exception {
    HostPort bus = masterEventBus();
    assertThrows(SSLHandshakeException.class, () -> handshake(bus, "TLSv1.2", null, keys.keyCert()));
    assertEquals("TLSv1.3", handshake(bus, "TLSv1.3", null, keys.keyCert()).split(" ")[0]);
  }

  /** The master's event-bus server, as the cluster's members know it. */
  private HostPort masterEventBus() throws Exception {
    TestMember member = cluster.member();
    var manager = ((VertxInternal) member.node().vertx()).clusterManager();
    for (Member m : member.node().hazelcast().getCluster().getMembers()) {
      if ("master".equals(m.getAttribute(Addresses.ROLE_ATTRIBUTE))) {
        Promise<NodeInfo> info = Promise.promise();
        manager.getNodeInfo(m.getAttribute(Addresses.NODE_ID_ATTRIBUTE), info);
        NodeInfo at = info.future().await(10, TimeUnit.SECONDS);
        return new HostPort(at.host(), at.port());
      }
    }
    throw new AssertionError("no master among the members");
  }

  /**
   * A handshake offering only {@code protocol} (and only {@code suites}, when given), presenting
   * {@code clientCert} when given: the protocol and suite agreed. The server's certificate must
   * chain to the cluster's CA (the monitor, the gateway) or be the event bus's certificate.
   */
  private String handshake(HostPort at, String protocol, List<String> suites, PfxOptions clientCert)
      throws Exception {
    KeyManager[] keys = null;
    if (clientCert != null) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(new ByteArrayInputStream(clientCert.getValue().getBytes()), clientCert.getPassword().toCharArray());
      KeyManagerFactory f = KeyManagerFactory.getInstance("PKIX");
      f.init(store, clientCert.getPassword().toCharArray());
      keys = f.getKeyManagers();
    }
    KeyStore anchors = KeyStore.getInstance("PKCS12");
    anchors.load(null, null);
    anchors.setCertificateEntry("ca", this.keys.authority().certificate());
    anchors.setCertificateEntry("bus", this.keys.certificate());
    TrustManagerFactory trust = TrustManagerFactory.getInstance("PKIX");
    trust.init(anchors);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(keys, trust.getTrustManagers(), null);
    try (SSLSocket s = (SSLSocket) tls.getSocketFactory().createSocket()) {
      s.connect(new InetSocketAddress(at.host(), at.port()), 10_000);
      s.setSoTimeout(10_000);
      s.setEnabledProtocols(new String[] {protocol});
      if (suites != null) {
        s.setEnabledCipherSuites(suites.toArray(String[]::new));
      }
      s.startHandshake();
      return s.getSession().getProtocol() + " " + s.getSession().getCipherSuite();
    }
  }

  /** What openssl's client says when it offers only {@code version} (a flag such as {@code -tls1_1}). */
  private static String openssl(HostPort at, String version) {
    List<String> cmd = new ArrayList<>(List.of("openssl", "s_client", "-connect", at.host() + ":" + at.port(), version,
        "-cipher", "DEFAULT:@SECLEVEL=0")); // OpenSSL 3 refuses to offer TLS 1.1 and 1.0 at its default level
    try (ParlProcess p = ParlProcess.startCommand(Map.of(), "openssl", cmd)) {
      p.awaitExit(Duration.ofSeconds(30)); // no input: it ends after the handshake, either way
      return p.output();
    }
  }
}
