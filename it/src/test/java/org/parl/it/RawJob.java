package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.vertx.core.json.JsonObject;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.security.SharedSecret;
import org.parl.internal.wire.DataAuth;
import org.parl.internal.wire.DataMessage;
import org.parl.internal.wire.DataMessageCodec;
import org.parl.internal.wire.FrameKeys;
import org.parl.internal.wire.Frames;

/**
 * A job created through the gateway's raw protocol (the gateway connection stays open, or the
 * master stops the job), and raw connections to its data port that speak the handshake by hand.
 */
final class RawJob implements AutoCloseable {

  final String host;
  final int port;
  final long pid;
  final SharedSecret secret;
  /** The job's nonce for its client's HELLO, from the same placement. */
  final byte[] nonce;
  private final GatewayPeer gateway;
  private final java.util.concurrent.ScheduledExecutorService pings;

  private RawJob(GatewayPeer gateway, java.util.concurrent.ScheduledExecutorService pings, JsonObject placement) {
    this.gateway = gateway;
    this.pings = pings;
    this.host = placement.getString("host");
    this.port = placement.getInteger("port");
    this.pid = placement.getLong("pid");
    this.secret = SharedSecret.ofHex(placement.getString("token"));
    this.nonce = java.util.HexFormat.of().parseHex(placement.getString("nonce"));
  }

  /** Authenticates at the gateway with the cluster's token, says hello as a client and creates a 1-CPU job. */
  static RawJob create(String address, ClusterToken token) throws Exception {
    GatewayPeer g = GatewayPeer.authenticated(address, token);
    g.send("{\"type\":\"ClientHello\",\"id\":1}");
    String line;
    do { // what the gateway says before its welcome (the proof of its certificate) is not the answer
      line = g.readLine();
      assertNotNull(line, "the gateway answers hello");
    } while (!line.contains("\"type\":\"Welcome\""));
    // as a client does, it asks only once welcomed (the welcome waits for the session's ticket to be stored)
    g.send("{\"type\":\"Create\",\"id\":2,\"resources\":{\"cpus\":1},\"timeoutMs\":30000,\"actorClass\":\"X\"}");
    // it pings every 2 s as a client does: a job's start on a busy host can take longer than the
    // gateway's 10 s limit for a silent client; only this thread writes from now on
    java.util.concurrent.ScheduledExecutorService pings = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
    java.util.concurrent.atomic.AtomicLong ids = new java.util.concurrent.atomic.AtomicLong(100);
    pings.scheduleWithFixedDelay(() -> {
      try {
        g.send("{\"type\":\"Ping\",\"id\":" + ids.incrementAndGet() + "}");
      } catch (IOException e) {
        // closed: the test reads why
      }
    }, 2, 2, java.util.concurrent.TimeUnit.SECONDS);
    String created;
    do { // the pings' answers may come before the create's answer
      created = g.readLine();
      if (created == null) {
        pings.shutdownNow();
      }
      assertNotNull(created, "the gateway answers the create");
    } while (!created.contains("\"id\":2,") && !created.contains("\"id\":2}"));
    JsonObject placement = new JsonObject(created).getJsonObject("placement");
    if (placement == null) {
      pings.shutdownNow();
    }
    assertNotNull(placement, "a job for the raw client: " + created);
    return new RawJob(g, pings, placement);
  }

  /** A connection to the data port, with TLS (accepting whatever certificate the job shows) or without. */
  Socket connect(boolean tls) throws IOException {
    Socket s = new Socket(host, port);
    s.setSoTimeout(15_000);
    if (!tls) {
      return s;
    }
    SSLSocket ssl = (SSLSocket) trustAll().getSocketFactory().createSocket(s, host, port, true);
    ssl.startHandshake();
    return ssl;
  }

  /**
   * Sends a HELLO proven with {@code secret} over the job's {@code nonce} and {@code fingerprint},
   * and returns the answer (RESULT or ERROR).
   */
  static Frames.Frame hello(Socket s, SharedSecret secret, byte[] nonce, byte[] fingerprint) throws IOException {
    return exchange(s, secret, nonce, fingerprint).answer();
  }

  /** The streams of a connection without TLS after a successful HELLO: its frames sealed both ways, as a client's are. */
  record Sealed(DataInputStream in, OutputStream out) {}

  /** Says HELLO as this job's client on a connection without TLS, expects to be let in, and seals the connection. */
  Sealed open(Socket s) throws IOException {
    Exchange e = exchange(s, secret, nonce, DataAuth.NO_FINGERPRINT);
    assertEquals(Frames.RESULT, e.answer().type(), "the job lets its client in");
    FrameKeys keys = FrameKeys.derive(secret, e.jobNonce(), e.clientNonce(), e.hello(),
        Arrays.copyOf(e.answer().payload(), e.answer().length()));
    return new Sealed(new DataInputStream(keys.clientInput(e.in())), keys.clientOutput(s.getOutputStream()));
  }

  private record Exchange(byte[] jobNonce, byte[] clientNonce, byte[] hello, Frames.Frame answer, InputStream in) {}

  private static Exchange exchange(Socket s, SharedSecret secret, byte[] jobNonce, byte[] fingerprint) throws IOException {
    DataInputStream in = new DataInputStream(s.getInputStream());
    byte[] nonce = ClusterToken.nonce(SharedSecret.BYTES);
    HexFormat hex = HexFormat.of();
    byte[] helloBytes = DataMessageCodec.encode(new DataMessage.Hello(Frames.PROTOCOL, hex.formatHex(nonce),
        hex.formatHex(DataAuth.helloProof(secret, jobNonce, nonce, fingerprint)), "raw", List.of(), null));
    Frames.write(s.getOutputStream(), Frames.HELLO, 1, helloBytes);
    Frames.Frame answer = Frames.read(in);
    if (answer.type() == Frames.RESULT) {
      DataMessage.Welcome welcome = DataMessageCodec.welcome(answer.payload(), answer.length());
      if (!DataAuth.verifyWelcome(secret, DataAuth.bytes32(welcome.proof()), jobNonce, nonce, fingerprint)) {
        throw new AssertionError("the job's proof does not verify: " + welcome);
      }
    }
    return new Exchange(jobNonce, nonce, helloBytes, answer, in);
  }

  /** The text of an ERROR frame. */
  static String message(Frames.Frame f) {
    assertEquals(Frames.ERROR, f.type(), "an ERROR frame");
    return DataMessageCodec.failure(f.payload(), f.length()).message();
  }

  /** The job process's resident memory, in KiB. */
  long residentKb() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    throw new IOException("no VmRSS for process " + pid);
  }

  private static SSLContext trustAll() {
    try {
      SSLContext ctx = SSLContext.getInstance("TLSv1.3");
      ctx.init(null, new TrustManager[] {new GatewayPeer.AnyServer()}, null);
      return ctx;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() throws IOException {
    pings.shutdownNow();
    gateway.close();
  }

  /**
   * Waits until the gateway tells this client that its job ended, as a client does after closing its
   * actor: a client that leaves right after the close would have its job stopped as an orphan, which
   * may come before the job's own report that it is free again, and then the process is not taken back.
   */
  void awaitEnded() throws IOException {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      String line = gateway.readLine(); // the pings' answers come in between
      assertNotNull(line, "the gateway closed before the job's end was told");
      if (line.contains("\"type\":\"JobEnded\"")) {
        return;
      }
    }
    throw new AssertionError("the gateway did not tell the end of job process " + pid + " within 30 s");
  }
}
