package org.parl.master;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.parl.internal.wire.gateway.GatewayAuth;

/** A hand-made peer of the gateway: TLS that takes any certificate, then lines as the test writes them. */
final class TlsPeer implements AutoCloseable {

  final SSLSocket socket;
  private final InputStream in;
  private final OutputStream out;
  /** Every byte received, to check what a refused peer learned. */
  final ByteArrayOutputStream received = new ByteArrayOutputStream();

  TlsPeer(int port) throws IOException, GeneralSecurityException {
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, new TrustManager[] {new AnyServer()}, null);
    socket = (SSLSocket) tls.getSocketFactory().createSocket(new Socket("127.0.0.1", port), "127.0.0.1", port, true);
    socket.setSoTimeout(10_000);
    socket.startHandshake();
    in = socket.getInputStream();
    out = socket.getOutputStream();
  }

  /** SHA-256 of the certificate this peer was shown. */
  byte[] fingerprint() throws IOException {
    return GatewayAuth.fingerprint(socket.getSession().getPeerCertificates()[0]);
  }

  void send(String line) throws IOException {
    out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  /** The next line, or null at the end of the stream. */
  String readLine() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) {
        return line.size() == 0 ? null : line.toString(StandardCharsets.UTF_8);
      }
      received.write(b);
      line.write(b);
    }
    received.write('\n');
    return line.toString(StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }

  /** Takes any certificate: the test looks at it itself. */
  private static final class AnyServer implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
