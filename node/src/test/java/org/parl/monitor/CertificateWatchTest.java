package org.parl.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.parl.tls.CertificateFiles;
import org.parl.tls.NodeCertificate;
import org.parl.tls.TestCertificates;

/** The operator's monitor certificate is reloaded into the running server when its files change. */
class CertificateWatchTest {

  @TempDir
  Path dir;

  private Vertx vertx;
  private Context context;
  private HttpServer server;
  private CertificateWatch watch;
  private TestCertificates.Issued ca;
  private CertificateFiles files;
  private final Promise<NodeCertificate> installed = Promise.promise();

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    context = vertx.getOrCreateContext();
    ca = TestCertificates.ca("lab CA");
    files = new CertificateFiles(dir.resolve("monitor.pem"), dir.resolve("monitor.key"));
    TestCertificates.Issued first = TestCertificates.leaf(ca, "RSA");
    writeAtomically(first);
    NodeCertificate read = files.read(Instant.now());
    server = vertx.createHttpServer(MonitorVerticle.options(read)).requestHandler(r -> r.response().end("ok"))
        .listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
    Promise<CertificateWatch> made = Promise.promise();
    context.runOnContext(v -> {
      try {
        made.complete(new CertificateWatch(context, files, read, next -> server.updateSSLOptions(
            MonitorVerticle.options(next).getSslOptions()).onSuccess(done -> installed.tryComplete(next))));
      } catch (Exception e) {
        made.fail(e);
      }
    });
    watch = made.future().await(10, TimeUnit.SECONDS);
    assertEquals(first.certificate(), presented());
  }

  @AfterEach
  void stop() throws Exception {
    watch.close();
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  @Test
  void aRenewalIsServedWithoutARestart() throws Exception {
    TestCertificates.Issued renewed = TestCertificates.leaf(ca, "EC");
    writeAtomically(renewed);
    assertEquals(renewed.certificate(), installed.future().await(10, TimeUnit.SECONDS).certificate());
    assertEquals(renewed.certificate(), presented());
  }

  @Test
  void filesThatDoNotCheckOutLeaveTheServerWithItsCertificate() throws Exception {
    X509Certificate before = presented();
    TestCertificates.Issued other = TestCertificates.leaf(ca, "EC");
    Files.writeString(dir.resolve("monitor.pem.new"), org.parl.tls.Pem.certificates(java.util.List.of(other.certificate())));
    Files.move(dir.resolve("monitor.pem.new"), files.certificate(), StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING); // the certificate renewed, its key not yet
    Promise<Boolean> reloaded = Promise.promise();
    context.runOnContext(v -> watch.reload().onComplete(reloaded));
    Throwable refused = assertThrowsOn(reloaded.future());
    assertEquals("the key in " + files.key() + " does not match the certificate in " + files.certificate(), refused.getMessage());
    assertEquals(before, presented());
  }

  private static Throwable assertThrowsOn(Future<?> f) throws Exception {
    try {
      f.await(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      return e;
    }
    throw new AssertionError("the reload succeeded");
  }

  /** Writes the pair as a renewal tool does: each file whole, the key first. */
  private void writeAtomically(TestCertificates.Issued issued) throws Exception {
    TestCertificates.key(dir.resolve("next.key"), issued.keys());
    Files.move(dir.resolve("next.key"), files.key(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    TestCertificates.write(dir.resolve("next.pem"), issued.certificate(), ca.certificate());
    Files.move(dir.resolve("next.pem"), files.certificate(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /** The certificate the server presents to a new connection, checked against the test's CA. */
  private X509Certificate presented() throws Exception {
    java.security.KeyStore anchors = java.security.KeyStore.getInstance("PKCS12");
    anchors.load(null, null);
    anchors.setCertificateEntry("ca", ca.certificate());
    TrustManagerFactory trust = TrustManagerFactory.getInstance("PKIX");
    trust.init(anchors);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, trust.getTrustManagers(), null);
    try (SSLSocket s = (SSLSocket) tls.getSocketFactory().createSocket()) {
      s.connect(new InetSocketAddress("127.0.0.1", server.actualPort()), 10_000);
      s.setSoTimeout(10_000);
      s.startHandshake();
      Certificate[] chain = s.getSession().getPeerCertificates();
      assertTrue(chain.length >= 1);
      return (X509Certificate) chain[0];
    }
  }
}
