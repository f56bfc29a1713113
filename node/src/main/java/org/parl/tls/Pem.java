package org.parl.tls;

import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;

/** PEM text of certificates and keys, as OpenSSL, curl, Prometheus and Vert.x read it. */
public final class Pem {

  private Pem() {}

  /** The certificates, each as a {@code CERTIFICATE} block, in order. */
  public static String certificates(List<X509Certificate> chain) {
    StringBuilder out = new StringBuilder();
    for (X509Certificate c : chain) {
      try {
        out.append(block("CERTIFICATE", c.getEncoded()));
      } catch (CertificateEncodingException e) {
        throw new IllegalStateException("a certificate cannot be encoded: " + e.getMessage(), e);
      }
    }
    return out.toString();
  }

  /** The key as a PKCS#8 {@code PRIVATE KEY} block. */
  public static String privateKey(PrivateKey key) {
    return block("PRIVATE KEY", key.getEncoded());
  }

  private static String block(String type, byte[] der) {
    String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
    return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
  }
}
