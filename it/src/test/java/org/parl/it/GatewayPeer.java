package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.wire.gateway.ClientHandshake;
import org.parl.internal.wire.gateway.GatewayAuth;
import org.parl.internal.wire.gateway.GatewayCodec;
import org.parl.internal.wire.gateway.GatewayReply;

/**
 * A hand-written peer of the master's gateway, as a stranger or a careful client would write one:
 * TLS that takes any certificate, then JSON lines. {@link #authenticate} does the handshake by hand.
 * Every byte received is kept, to check what a refused peer learned.
 */
final class GatewayPeer implements AutoCloseable {

  private final SSLSocket socket;
  private final InputStream in;
  private final OutputStream out;
  private final ByteArrayOutputStream received = new ByteArrayOutputStream();

  /** Connects with TLS to {@code HOST:PORT}; reads nothing yet. */
  GatewayPeer(String address) throws IOException, GeneralSecurityException {
    String[] hp = address.split(":");
    int port = Integer.parseInt(hp[1]);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, new TrustManager[] {new AnyServer()}, null);
    socket = (SSLSocket) tls.getSocketFactory().createSocket(new Socket(hp[0], port), hp[0], port, true);
    socket.setSoTimeout(30_000);
    socket.startHandshake();
    in = socket.getInputStream();
    out = socket.getOutputStream();
  }

  /** A peer that has proved that it holds {@code token}, and checked the gateway's proof. */
  static GatewayPeer authenticated(String address, ClusterToken token) throws Exception {
    GatewayPeer p = new GatewayPeer(address);
    ClientHandshake handshake = new ClientHandshake(token, p.fingerprint());
    p.send(new String(GatewayCodec.encode(handshake.answer((GatewayReply.Challenge) p.reply(), 0)), StandardCharsets.UTF_8));
    if (!(p.reply() instanceof GatewayReply.Authenticated proven) || !handshake.verify(proven)) {
      throw new AssertionError("the gateway did not prove the token");
    }
    return p;
  }

  byte[] fingerprint() throws IOException {
    return GatewayAuth.fingerprint(socket.getSession().getPeerCertificates()[0]);
  }

  SSLSocket socket() {
    return socket;
  }

  void send(String line) throws IOException {
    write((line + "\n").getBytes(StandardCharsets.UTF_8));
  }

  void write(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** The next line, or null when the gateway closed the connection. */
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

  /** The next line as a gateway message; fails when the connection closed. */
  GatewayReply reply() throws IOException {
    String line = readLine();
    if (line == null) {
      throw new AssertionError("the gateway closed the connection");
    }
    return GatewayCodec.reply(Buffer.buffer(line));
  }

  /** Everything received so far, as text. */
  String received() {
    return received.toString(StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }

  /**
   * Opens connections from this address (kept in {@code peers}, for the caller to close) until the
   * gateway refuses one, at most {@code most}; the refusal's message, or null when none was refused.
   */
  static String openUntilRefused(String address, List<GatewayPeer> peers, int most) throws Exception {
    while (peers.size() < most) {
      GatewayPeer p = new GatewayPeer(address);
      peers.add(p);
      String first = p.readLine();
      assertNotNull(first, "the gateway said nothing to connection " + peers.size());
      JsonObject line = new JsonObject(first);
      if ("Failed".equals(line.getString("type"))) {
        return line.getString("message");
      }
    }
    return null;
  }

  /** Takes any certificate: the handshake checks it (the gateway's or a job's proof is bound to it). */
  static final class AnyServer implements X509TrustManager {
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
