package org.parl.client;

import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.parl.wire.DataAuth;

/**
 * TLS on the data path of a cluster started with {@code --encrypt-data}. The job's certificate is
 * accepted as shown, without a certificate authority: what makes it trustworthy is that both
 * sides' proofs ({@link DataAuth}) are bound to its fingerprint, and only the job that holds the
 * per-job secret can prove over the certificate the client saw.
 */
final class DataTls {

  private static final String PROTOCOL = "TLSv1.3";
  private static final SSLContext CONTEXT = context();

  private DataTls() {}

  /** Runs the TLS handshake over a connected socket, within {@code timeoutMs}. */
  static SSLSocket wrap(Socket plain, String host, int port, int timeoutMs) throws IOException {
    SSLSocket s = (SSLSocket) CONTEXT.getSocketFactory().createSocket(plain, host, port, true);
    s.setEnabledProtocols(new String[] {PROTOCOL});
    s.setUseClientMode(true);
    s.setSoTimeout(timeoutMs);
    s.startHandshake();
    s.setSoTimeout(0);
    return s;
  }

  /** The fingerprint of the certificate the job presented on {@code s}. */
  static byte[] fingerprint(SSLSocket s) throws IOException {
    Certificate[] chain = s.getSession().getPeerCertificates();
    return DataAuth.fingerprint(chain[0]);
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
   * Accepts the certificate a job shows: it is checked afterwards, by the job's proof over its
   * fingerprint. Acts only as a client.
   */
  private static final class ShownCertificate extends X509ExtendedTrustManager {

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {
      // bound to the job's proof instead
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
      // bound to the job's proof instead
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
      // bound to the job's proof instead
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
