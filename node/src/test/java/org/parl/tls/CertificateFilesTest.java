package org.parl.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CertificateFilesTest {

  private static TestCertificates.Issued ca;

  @TempDir
  Path dir;

  @BeforeAll
  static void makeCa() throws Exception {
    ca = TestCertificates.ca("lab CA");
  }

  @Test
  void readsAnRsaKeyInOpenSslsFormWithItsChain() throws Exception {
    TestCertificates.Issued leaf = TestCertificates.leaf(ca, "RSA");
    Path cert = TestCertificates.write(dir.resolve("monitor.pem"), leaf.certificate(), ca.certificate());
    Path key = TestCertificates.key(dir.resolve("monitor.key"), leaf.keys());
    assertEquals("-----BEGIN RSA PRIVATE KEY-----", Files.readAllLines(key).get(0));
    NodeCertificate read = new CertificateFiles(cert, key).read(Instant.now());
    assertEquals(List.of(leaf.certificate(), ca.certificate()), read.chain());
    assertEquals(leaf.keys().getPrivate(), read.key());
  }

  @Test
  void readsAnEcKeyInPkcs8() throws Exception {
    TestCertificates.Issued leaf = TestCertificates.leaf(ca, "EC");
    Path cert = TestCertificates.write(dir.resolve("monitor.pem"), leaf.certificate());
    Path key = Files.writeString(dir.resolve("monitor.key"), Pem.privateKey(leaf.keys().getPrivate()));
    assertEquals(leaf.certificate(), new CertificateFiles(cert, key).read(Instant.now()).certificate());
  }

  @Test
  void aKeyOfAnotherCertificateIsRefused() throws Exception {
    TestCertificates.Issued leaf = TestCertificates.leaf(ca, "EC");
    TestCertificates.Issued other = TestCertificates.leaf(ca, "EC");
    Path cert = TestCertificates.write(dir.resolve("monitor.pem"), leaf.certificate());
    Path key = TestCertificates.key(dir.resolve("other.key"), other.keys());
    assertEquals("the key in " + key + " does not match the certificate in " + cert, refusal(cert, key));
    Path rsa = TestCertificates.key(dir.resolve("rsa.key"), TestCertificates.keys("RSA"));
    assertEquals("the key in " + rsa + " does not match the certificate in " + cert, refusal(cert, rsa));
  }

  @Test
  void anExpiredOrNotYetValidCertificateIsRefused() throws Exception {
    Instant now = Instant.now();
    Instant ended = now.minus(Duration.ofDays(1)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    TestCertificates.Issued expired = TestCertificates.leaf(ca, "EC", now.minus(Duration.ofDays(3)), ended);
    Path cert = TestCertificates.write(dir.resolve("expired.pem"), expired.certificate());
    Path key = TestCertificates.key(dir.resolve("expired.key"), expired.keys());
    assertEquals("the certificate in " + cert + " expired on " + ended, refusal(cert, key));

    Instant starts = now.plus(Duration.ofDays(1)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    TestCertificates.Issued early = TestCertificates.leaf(ca, "EC", starts, now.plus(Duration.ofDays(2)));
    Path earlyCert = TestCertificates.write(dir.resolve("early.pem"), early.certificate());
    Path earlyKey = TestCertificates.key(dir.resolve("early.key"), early.keys());
    assertEquals("the certificate in " + earlyCert + " is not valid before " + starts, refusal(earlyCert, earlyKey));
  }

  @Test
  void unreadableFilesAreNamed() throws Exception {
    TestCertificates.Issued leaf = TestCertificates.leaf(ca, "EC");
    Path cert = TestCertificates.write(dir.resolve("monitor.pem"), leaf.certificate());
    Path key = TestCertificates.key(dir.resolve("monitor.key"), leaf.keys());
    Path missing = dir.resolve("missing.pem");
    assertEquals("cannot read the certificate file " + missing + " (no such file)", refusal(missing, key));
    assertEquals("cannot read the key file " + missing + " (no such file)", refusal(cert, missing));
    Path text = Files.writeString(dir.resolve("notes.txt"), "not a certificate\n");
    assertEquals("the certificate file " + text + " holds no PEM certificate", refusal(text, key));
    assertEquals("the key file " + text + " holds no PEM private key", refusal(cert, text));
    assertEquals("the key file " + cert + " holds no PEM private key", refusal(cert, cert), "the files swapped");
  }

  private static String refusal(Path cert, Path key) {
    return assertThrows(CertificateFiles.BadCertificateException.class, () -> new CertificateFiles(cert, key).read(Instant.now()))
        .getMessage();
  }
}
