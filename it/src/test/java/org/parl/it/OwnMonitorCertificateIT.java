package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.internal.net.HostPort;
import org.parl.monitor.MonitorHttp;

/**
 * The operator's own monitor certificate ({@code --tls-cert}, {@code --tls-key}), made with the
 * openssl command line as a lab's CA would: refused at start with one sentence and exit 1 when it
 * does not check out; served, and reloaded without a restart when its files are renewed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OwnMonitorCertificateIT {

  private static final Duration COMMAND = Duration.ofSeconds(60);

  private Path dir;
  private Path caCert;
  private TestCluster cluster;

  @BeforeAll
  void makeCa() throws Exception {
    dir = Files.createTempDirectory("parl-own-cert");
    caCert = dir.resolve("lab-ca.pem");
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
        "-keyout", dir.resolve("lab-ca.key").toString(), "-out", caCert.toString(), "-subj", "/CN=lab CA", "-days", "2",
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign");
    Files.writeString(dir.resolve("san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  }

  @AfterAll
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
    TempTrees.delete(dir);
  }

  @Test
  void aKeyThatDoesNotMatchStopsTheMasterWithOneSentence() throws Exception {
    Path cert = issue("mismatch", "rsa");
    Path otherKey = issue("other", "ec").resolveSibling("other.key");
    Path home = dir.resolve("home-mismatch");
    TestCluster.giveToken(home, "ab".repeat(32));
    try (ParlProcess master = ParlProcess.start(ParlProcess.env(home), "master", "--port", "0",
        "--tls-cert", cert.toString(), "--tls-key", otherKey.toString())) {
      assertEquals(1, master.awaitExit(COMMAND), master.output());
      assertEquals("parl: the key in " + otherKey + " does not match the certificate in " + cert, master.output().strip());
    }
  }

  @Test
  void theMonitorServesTheOperatorsCertificateAndReloadsItsRenewal() throws Exception {
    Path cert = dir.resolve("monitor.pem");
    Path key = dir.resolve("monitor.key");
    Files.move(issue("first", "rsa"), cert);
    Files.move(dir.resolve("first.key"), key);
    cluster = TestCluster.start(0, "--cpus", "1", "--tls-cert", cert.toString(), "--tls-key", key.toString());
    String monitor = cluster.master.awaitLine("monitor: (https://[^/\\s]+)/login", TestCluster.START).group(1);
    cluster.master.awaitLine("\\(certificate from " + java.util.regex.Pattern.quote(cert.toString())
        + " with SHA-256 ", TestCluster.START);
    X509Certificate ca = read(caCert).get(0);
    assertEquals(read(cert).get(0), presented(monitor, ca));
    assertEquals(200, MonitorHttp.trusting(monitor, cluster.token(), ca).get("/api/cluster").status());

    // a renewal, as certbot or a lab's tooling writes it: a new key and certificate, each moved into place
    Path renewed = issue("renewed", "ec");
    Files.move(dir.resolve("renewed.key"), key, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    Files.move(renewed, cert, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    cluster.master.awaitLine("monitor certificate reloaded from " + java.util.regex.Pattern.quote(cert.toString()),
        Duration.ofSeconds(30));
    assertEquals(read(cert).get(0), presented(monitor, ca), "the renewed certificate, from the same process");
    assertTrue(cluster.master.isAlive());
    assertEquals(200, MonitorHttp.trusting(monitor, cluster.token(), ca).get("/api/cluster").status());
  }

  /**
   * Makes a key ({@code rsa}: PKCS#8; {@code ec}: OpenSSL's traditional EC form) and a certificate
   * for 127.0.0.1 signed by the lab CA, followed by the CA (the chain); returns the certificate file.
   */
  private Path issue(String name, String type) throws Exception {
    Path key = dir.resolve(name + ".key");
    Path csr = dir.resolve(name + ".csr");
    Path cert = dir.resolve(name + ".pem");
    if (type.equals("rsa")) {
      openssl("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key.toString());
    } else {
      openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", key.toString());
    }
    openssl("req", "-new", "-key", key.toString(), "-out", csr.toString(), "-subj", "/CN=parl monitor");
    openssl("x509", "-req", "-in", csr.toString(), "-CA", caCert.toString(), "-CAkey", dir.resolve("lab-ca.key").toString(),
        "-CAcreateserial", "-days", "1", "-extfile", dir.resolve("san.ext").toString(), "-out", cert.toString());
    Files.writeString(cert, Files.readString(cert) + Files.readString(caCert));
    return cert;
  }

  private static void openssl(String... args) {
    List<String> cmd = new ArrayList<>(List.of("openssl"));
    cmd.addAll(List.of(args));
    try (ParlProcess p = ParlProcess.startCommand(Map.of(), "openssl", cmd)) {
      assertEquals(0, p.awaitExit(COMMAND), String.join(" ", cmd) + ":\n" + p.output());
    }
  }

  private static List<X509Certificate> read(Path pem) throws Exception {
    List<X509Certificate> all = new ArrayList<>();
    CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(Files.readAllBytes(pem)))
        .forEach(c -> all.add((X509Certificate) c));
    return all;
  }

  /** The certificate the monitor presents to a new connection, verified against {@code ca} and the host name. */
  private static X509Certificate presented(String monitor, X509Certificate ca) throws Exception {
    KeyStore anchors = KeyStore.getInstance("PKCS12");
    anchors.load(null, null);
    anchors.setCertificateEntry("ca", ca);
    TrustManagerFactory trust = TrustManagerFactory.getInstance("PKIX");
    trust.init(anchors);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, trust.getTrustManagers(), null);
    HostPort at = HostPort.parse(monitor.substring("https://".length()));
    try (SSLSocket s = (SSLSocket) tls.getSocketFactory().createSocket()) {
      s.connect(new InetSocketAddress(at.host(), at.port()), 10_000);
      s.setSoTimeout(10_000);
      SSLParameters p = s.getSSLParameters();
      p.setEndpointIdentificationAlgorithm("HTTPS");
      s.setSSLParameters(p);
      s.startHandshake();
      return (X509Certificate) s.getSession().getPeerCertificates()[0];
    }
  }
}
