package org.parl.internal.wire;

import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The TLS of a client of the master's gateway ({@link LineSocket}: programs, and the workers, monitors
 * and commands that ask the gateway how to join) and of the data path of a cluster started with
 * {@code --encrypt-data}: a blocking JDK socket, whose first handshake in a fresh program is quicker
 * than Netty's TLS handler's. The peer's certificate is accepted
 * as shown, without a certificate authority: what makes it trustworthy is that both sides' proofs
 * ({@code GatewayAuth}, {@code DataAuth}) are bound to its fingerprint, and only a peer that holds
 * the secret can prove over the certificate the client saw.
 */
public final class ProofBoundTls {

  private static final String PROTOCOL = "TLSv1.3";
  /**
   * Offered in ALPN: parl's servers pick none, while an HTTPS server (parl's monitor, given by mistake
   * as the master's address) picks {@code http/1.1}, which tells at once what it is rather than after a
   * read times out.
   */
  private static final String[] OFFERED = {"parl", "http/1.1"};
  private static final SSLContext CONTEXT = context();

  private ProofBoundTls() {}

  /**
   * Runs the TLS handshake over a connected socket, within {@code timeoutMs}; with 0, without a
   * timeout of its own (the caller bounds it, and the socket is left without a timed read).
   *
   * @throws HttpsServerException when the peer chose HTTP: it is a web server
   */
  public static SSLSocket wrap(Socket plain, String host, int port, int timeoutMs) throws IOException {
    SSLSocket s = (SSLSocket) CONTEXT.getSocketFactory().createSocket(plain, host, port, true);
    SSLParameters params = s.getSSLParameters();
    params.setProtocols(new String[] {PROTOCOL});
    params.setApplicationProtocols(OFFERED);
    s.setSSLParameters(params);
    s.setUseClientMode(true);
    if (timeoutMs > 0) {
      s.setSoTimeout(timeoutMs);
    }
    s.startHandshake();
    String chosen = s.getApplicationProtocol();
    if (chosen != null && !chosen.isEmpty() && !OFFERED[0].equals(chosen)) {
      throw new HttpsServerException(host + ":" + port, chosen);
    }
    if (timeoutMs > 0) {
      s.setSoTimeout(0);
    }
    return s;
  }

  /** The certificate the peer presented on {@code s}, which its proof must be bound to. */
  public static Certificate peerCertificate(SSLSocket s) throws IOException {
    return s.getSession().getPeerCertificates()[0];
  }

  private static SSLContext context() {
    try {
      SSLContext ctx = SSLContext.getInstance(PROTOCOL);
      ctx.init(null, new TrustManager[] {new ShownCertificate()}, null);
      return ctx;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this Java runtime has no " + PROTOCOL + ": " + e.getMessage(), e);
    }
  }

  /**
   * Accepts the certificate a peer shows: it is checked afterwards, by the peer's proof over its
   * fingerprint. Acts only as a client.
   */
  private static final class ShownCertificate extends X509ExtendedTrustManager {

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {
      // bound to the peer's proof instead
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
      // bound to the peer's proof instead
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
      // bound to the peer's proof instead
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
      throw new CertificateException("a parl client serves no TLS");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      throw new CertificateException("a parl client serves no TLS");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      throw new CertificateException("a parl client serves no TLS");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
