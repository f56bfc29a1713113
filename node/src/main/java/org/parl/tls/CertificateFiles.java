package org.parl.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * A certificate an operator brings ({@code --tls-cert FILE --tls-key FILE}): PEM files, the
 * certificate first and its chain after it, and an RSA or EC key (PKCS#8, or the traditional
 * OpenSSL forms), unencrypted. Read and checked at once: the key must match the certificate, and
 * the certificate must be valid now.
 *
 * @param certificate the certificate file
 * @param key the key file
 */
public record CertificateFiles(Path certificate, Path key) {

  /** A file that cannot serve: the message is one sentence naming the file and what is wrong. */
  public static final class BadCertificateException extends Exception {

    private static final long serialVersionUID = 1L;

    BadCertificateException(String message) {
      super(message);
    }
  }

  /** Reads both files and checks them at {@code now}. */
  public NodeCertificate read(Instant now) throws BadCertificateException {
    List<X509Certificate> chain = chain(text(certificate, "certificate"));
    PrivateKey privateKey = privateKey(text(key, "key"));
    X509Certificate own = chain.get(0);
    if (!privateKey.getAlgorithm().equals("RSA") && !privateKey.getAlgorithm().equals("EC")) {
      throw new BadCertificateException("the key file " + key + " holds an " + privateKey.getAlgorithm()
          + " key: give an RSA or EC key");
    }
    if (!matches(privateKey, own)) {
      throw new BadCertificateException("the key in " + key + " does not match the certificate in " + certificate);
    }
    if (now.isAfter(own.getNotAfter().toInstant())) {
      throw new BadCertificateException("the certificate in " + certificate + " expired on " + own.getNotAfter().toInstant());
    }
    if (now.isBefore(own.getNotBefore().toInstant())) {
      throw new BadCertificateException("the certificate in " + certificate + " is not valid before "
          + own.getNotBefore().toInstant());
    }
    return new NodeCertificate(privateKey, chain);
  }

  private static String text(Path file, String what) throws BadCertificateException {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException | SecurityException e) {
      throw new BadCertificateException("cannot read the " + what + " file " + file + " ("
          + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getClass().getSimpleName() + ": " + e.getMessage())
          + ")");
    }
  }

  private List<X509Certificate> chain(String pem) throws BadCertificateException {
    if (!pem.contains("-----BEGIN CERTIFICATE-----")) {
      throw new BadCertificateException("the certificate file " + certificate + " holds no PEM certificate");
    }
    List<X509Certificate> chain = new ArrayList<>();
    try {
      for (Certificate c : CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))) {
        chain.add((X509Certificate) c);
      }
    } catch (CertificateException | ClassCastException e) {
      throw new BadCertificateException("the certificate file " + certificate + " holds no readable PEM certificate ("
          + e.getMessage() + ")");
    }
    return chain;
  }

  private PrivateKey privateKey(String pem) throws BadCertificateException {
    Object read;
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      do {
        read = parser.readObject();
      } while (read != null && !(read instanceof PrivateKeyInfo || read instanceof PEMKeyPair
          || read instanceof PEMEncryptedKeyPair || read instanceof PKCS8EncryptedPrivateKeyInfo));
    } catch (IOException | RuntimeException e) {
      throw new BadCertificateException("the key file " + key + " holds no readable PEM private key (" + e.getMessage() + ")");
    }
    try {
      JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
      if (read instanceof PrivateKeyInfo info) {
        return converter.getPrivateKey(info);
      }
      if (read instanceof PEMKeyPair pair) {
        return converter.getPrivateKey(pair.getPrivateKeyInfo()); // the public half is optional in an EC key file
      }
    } catch (IOException e) {
      throw new BadCertificateException("the key file " + key + " holds a key this Java cannot use (" + e.getMessage() + ")");
    }
    if (read != null) {
      throw new BadCertificateException("the key file " + key + " holds an encrypted key: give the monitor an unencrypted one"
          + " readable by its user only");
    }
    throw new BadCertificateException("the key file " + key + " holds no PEM private key");
  }

  /** Whether {@code key} signs what the certificate's public key verifies. */
  private static boolean matches(PrivateKey key, X509Certificate certificate) {
    String algorithm = switch (key.getAlgorithm()) {
      case "RSA" -> "SHA256withRSA";
      case "EC" -> "SHA256withECDSA";
      default -> null;
    };
    if (algorithm == null || !key.getAlgorithm().equals(certificate.getPublicKey().getAlgorithm())) {
      return false;
    }
    try {
      byte[] probe = "parl: does this key match its certificate".getBytes(StandardCharsets.US_ASCII);
      Signature sign = Signature.getInstance(algorithm);
      sign.initSign(key);
      sign.update(probe);
      byte[] signature = sign.sign();
      Signature verify = Signature.getInstance(algorithm);
      verify.initVerify(certificate.getPublicKey());
      verify.update(probe);
      return verify.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }
}
