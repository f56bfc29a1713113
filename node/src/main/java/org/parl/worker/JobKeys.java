package org.parl.worker;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A TLS identity for one job process's data port with {@code --encrypt-data}: a fresh P-256 key and a
 * self-signed certificate, made by the worker (the job process has no certificate builder) and
 * handed to the process on its standard input. It is not derived from the cluster token: the
 * actor's code runs in that process, and must not hold a key that is good anywhere else. Clients
 * need not trust it: they bind their proof to its fingerprint.
 */
final class JobKeys {

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final X500Name NAME = new X500Name("CN=parl job");

  private JobKeys() {}

  /** The line a job process reads after its control secret: {@code tls base64(PKCS#8 key) base64(certificate)}. */
  static String tlsLine() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
      g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
      KeyPair pair = g.generateKeyPair();
      Instant now = Instant.now();
      X509CertificateHolder cert = new JcaX509v3CertificateBuilder(NAME, new BigInteger(64, RANDOM),
          Date.from(now.minus(Duration.ofDays(1))), Date.from(now.plus(Duration.ofDays(3650))), NAME, pair.getPublic())
          .build(new JcaContentSignerBuilder("SHA256withECDSA").build(pair.getPrivate()));
      Base64.Encoder b64 = Base64.getEncoder();
      return "tls " + b64.encodeToString(pair.getPrivate().getEncoded()) + " " + b64.encodeToString(cert.getEncoded());
    } catch (GeneralSecurityException | OperatorCreationException | java.io.IOException e) {
      throw new IllegalStateException("cannot make a TLS key for a job process: " + e.getMessage(), e);
    }
  }
}
