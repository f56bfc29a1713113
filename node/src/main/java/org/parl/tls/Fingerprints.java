package org.parl.tls;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.util.HexFormat;

/** SHA-256 fingerprints of certificates, as bytes and as browsers and {@code openssl x509 -fingerprint} show them. */
public final class Fingerprints {

  private Fingerprints() {}

  /** SHA-256 of the certificate's DER encoding. */
  public static byte[] sha256(X509Certificate certificate) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code AB:CD:...}: upper-case hex pairs separated by colons. */
  public static String show(byte[] fingerprint) {
    return HexFormat.ofDelimiter(":").withUpperCase().formatHex(fingerprint);
  }
}
