package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.internal.net.HostPort;
import org.parl.internal.security.ClusterToken;
import org.parl.monitor.MonitorHttp;
import org.parl.tls.ClusterAuthority;
import org.parl.tls.Fingerprints;

/**
 * The cluster's CA: {@code bin/parl cert} writes it, and with it alone curl and a JDK client verify
 * the monitor's and the gateway's certificates, host name included, with no skip flag; another
 * cluster's CA fails verification.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterCertificatesIT {

  private static final Duration COMMAND = Duration.ofSeconds(60);

  private TestCluster cluster;
  private String monitor;
  private Path stranger;
  /** What {@code bin/parl cert} printed: the path, then the fingerprint line. */
  private List<String> written;

  @BeforeAll
  void start() throws Exception {
    cluster = TestCluster.start(0, "--cpus", "1");
    monitor = cluster.master.awaitLine("monitor: (https://[^/\\s]+)/login", TestCluster.START).group(1);
    stranger = cluster.home.resolve("stranger-ca.pem");
    Files.writeString(stranger, ClusterAuthority.derive(ClusterToken.of("5a".repeat(32), "a stranger")).pem());
    written = cert();
  }

  @AfterAll
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void parlCertWritesTheCaUnderParlHomeAndPrintsItsPathAndFingerprint() throws Exception {
    ClusterAuthority ca = ClusterAuthority.derive(ClusterToken.of(cluster.token(), "test"));
    assertEquals(cluster.home.resolve("ca.pem").toString(), written.get(0), "the path alone on standard output");
    assertEquals(ca.pem(), Files.readString(cluster.home.resolve("ca.pem")));
    assertEquals("cluster CA SHA-256 " + Fingerprints.show(ca.fingerprint()), written.get(1));

    Path other = cluster.home.resolve("elsewhere").resolve("cluster.pem");
    assertEquals(other.toString(), cert("--out", other.toString()).get(0));
    assertEquals(ca.pem(), Files.readString(other));
  }

  @Test
  void curlVerifiesTheMonitorWithTheCaAloneAndNoSkipFlag() throws Exception {
    String ca = written.get(0);
    for (String base : List.of(monitor, monitor.replace("127.0.0.1", "localhost"))) {
      Curl ok = curl("--cacert", ca, "-H", "Authorization: Bearer " + cluster.token(), base + "/api/cluster");
      assertEquals(0, ok.exit(), base + ": " + ok.err());
      assertEquals("cpu", new JsonObject(ok.out()).getString("clusterType"));
    }
    Curl wrong = curl("--cacert", stranger.toString(), "-H", "Authorization: Bearer " + cluster.token(),
        monitor + "/api/cluster");
    assertEquals(60, wrong.exit(), "curl's 'peer certificate cannot be authenticated': " + wrong.err());
    assertEquals("", wrong.out(), "nothing was served over an unverified connection");
  }

  @Test
  void aJdkClientTrustingTheCaAloneVerifiesTheMonitorAndRefusesAnotherCa() throws Exception {
    ClusterAuthority ours = ClusterAuthority.derive(ClusterToken.of(cluster.token(), "test"));
    assertEquals(200, MonitorHttp.trusting(monitor, cluster.token(), ours.certificate()).get("/api/cluster").status());
    ClusterAuthority theirs = ClusterAuthority.derive(ClusterToken.of("5a".repeat(32), "a stranger"));
    assertThrows(SSLHandshakeException.class,
        () -> MonitorHttp.trusting(monitor, cluster.token(), theirs.certificate()).get("/api/cluster"));
  }

  @Test
  void theGatewayPresentsACertificateOfTheCaForItsAddress() throws Exception {
    HostPort gateway = HostPort.parse(cluster.address);
    try (SSLSocket s = handshake(gateway, ClusterAuthority.derive(ClusterToken.of(cluster.token(), "test")))) {
      assertEquals("TLSv1.3", s.getSession().getProtocol());
    }
    assertThrows(SSLHandshakeException.class,
        () -> handshake(gateway, ClusterAuthority.derive(ClusterToken.of("5a".repeat(32), "a stranger"))).close());
  }

  /** A TLS handshake with the gateway that checks its certificate against {@code ca} and its host name, as HTTPS does. */
  private static SSLSocket handshake(HostPort at, ClusterAuthority ca) throws Exception {
    KeyStore anchors = KeyStore.getInstance("PKCS12");
    anchors.load(null, null);
    anchors.setCertificateEntry("ca", ca.certificate());
    TrustManagerFactory trust = TrustManagerFactory.getInstance("PKIX");
    trust.init(anchors);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, trust.getTrustManagers(), null);
    SSLSocket s = (SSLSocket) tls.getSocketFactory().createSocket();
    try {
      s.connect(new InetSocketAddress(at.host(), at.port()), 10_000);
      s.setSoTimeout(10_000);
      SSLParameters p = s.getSSLParameters();
      p.setEndpointIdentificationAlgorithm("HTTPS");
      s.setSSLParameters(p);
      s.startHandshake();
      return s;
    } catch (IOException e) {
      s.close();
      throw e;
    }
  }

  private List<String> cert(String... args) {
    List<String> cmd = new ArrayList<>(List.of("cert"));
    cmd.addAll(List.of(args));
    try (ParlProcess p = ParlProcess.start(ParlProcess.env(cluster.home), cmd.toArray(String[]::new))) {
      assertEquals(0, p.awaitExit(COMMAND), p.output());
      String path = p.output().lines().filter(l -> l.endsWith(".pem")).findFirst().orElseThrow();
      String fingerprint = p.output().lines().filter(l -> l.startsWith("cluster CA SHA-256 ")).findFirst().orElseThrow();
      return List.of(path, fingerprint);
    }
  }

  private record Curl(int exit, String out, String err) {}

  private static Curl curl(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("curl", "-sS", "--max-time", "20"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).start();
    try {
      byte[] out = p.getInputStream().readAllBytes();
      byte[] err = p.getErrorStream().readAllBytes();
      assertTrue(p.waitFor(30, TimeUnit.SECONDS), "curl finished");
      return new Curl(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    } finally {
      p.destroyForcibly();
    }
  }
}
