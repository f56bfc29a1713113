package org.parl.tls;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** Certificates an operator might bring, made in the test: a CA, and leaves it signs. */
public final class TestCertificates {

  private static final AtomicLong SERIAL = new AtomicLong(1);

  public record Issued(KeyPair keys, X509Certificate certificate) {}

  private TestCertificates() {}

  public static KeyPair keys(String algorithm) throws GeneralSecurityException {
    KeyPairGenerator g = KeyPairGenerator.getInstance(algorithm);
    g.initialize(algorithm.equals("RSA") ? 2048 : 256);
    return g.generateKeyPair();
  }

  public static Issued ca(String name) throws Exception {
    KeyPair keys = keys("EC");
    Instant now = Instant.now();
    X509Certificate c = new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(
        new X500Name("CN=" + name), BigInteger.valueOf(SERIAL.getAndIncrement()), Date.from(now.minus(Duration.ofHours(1))),
        Date.from(now.plus(Duration.ofDays(2))), new X500Name("CN=" + name), keys.getPublic())
        .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
        .build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
    return new Issued(keys, c);
  }

  /** A certificate for 127.0.0.1 with a new key of {@code algorithm}, valid from {@code from} to {@code to}. */
  public static Issued leaf(Issued ca, String algorithm, Instant from, Instant to) throws Exception {
    KeyPair keys = keys(algorithm);
    X509Certificate c = new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(
        new X500Name(ca.certificate().getSubjectX500Principal().getName()), BigInteger.valueOf(SERIAL.getAndIncrement()),
        Date.from(from), Date.from(to), new X500Name("CN=monitor"), keys.getPublic())
        .addExtension(Extension.subjectAlternativeName, false,
            new GeneralNames(new GeneralName(GeneralName.iPAddress, "127.0.0.1")))
        .build(new JcaContentSignerBuilder("SHA256withECDSA").build(ca.keys().getPrivate())));
    return new Issued(keys, c);
  }

  public static Issued leaf(Issued ca, String algorithm) throws Exception {
    Instant now = Instant.now();
    return leaf(ca, algorithm, now.minus(Duration.ofHours(1)), now.plus(Duration.ofDays(1)));
  }

  /**
   * Writes the private key: RSA in OpenSSL's traditional form (as {@code openssl genrsa} writes it),
   * EC in PKCS#8 (JDK keys lack the curve in the traditional form).
   */
  public static Path key(Path file, KeyPair keys) throws IOException {
    return keys.getPrivate().getAlgorithm().equals("RSA") ? write(file, keys)
        : Files.writeString(file, Pem.privateKey(keys.getPrivate()));
  }

  /** Writes the objects as PEM. */
  public static Path write(Path file, Object... objects) throws IOException {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter pem = new JcaPEMWriter(out)) {
      for (Object o : objects) {
        pem.writeObject(o);
      }
    }
    return Files.writeString(file, out.toString());
  }
}
