package org.parl.node;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * TLS that accepts the gateway's certificate whatever it is, for the
 * benchmark's gateway driver: there is no CA to check it against, so the gateway's authentication is bound to the certificate instead
 * (each side's proof covers its SHA-256, see {@code GatewayAuth}): a certificate other than the
 * cluster's makes the handshake fail, and nothing is sent before it succeeded.
 */
public final class AnyCertificate extends X509ExtendedTrustManager {

  private static final X509Certificate[] NONE = new X509Certificate[0];

  private AnyCertificate() {}

  /** A TLS context that takes any server certificate (checked afterwards, see above). */
  public static SSLContext context() {
    try {
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(null, new TrustManager[] {new AnyCertificate()}, null);
      return tls;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this Java runtime has no TLS: " + e.getMessage(), e);
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType) {}

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType) {
    throw new UnsupportedOperationException("a gateway client does not accept connections");
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
    throw new UnsupportedOperationException("a gateway client does not accept connections");
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
    throw new UnsupportedOperationException("a gateway client does not accept connections");
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return NONE;
  }
}
