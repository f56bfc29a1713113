package org.parl.job;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.security.SharedSecret;
import org.parl.internal.wire.DataAuth;
import org.parl.internal.wire.DataMessage;
import org.parl.internal.wire.DataMessageCodec;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.FrameKeys;
import org.parl.internal.wire.Frames;
import org.parl.internal.wire.IntegrityException;
import org.parl.internal.wire.SharedLink;

/**
 * The job's data port on loopback, with a session that echoes: the challenge-response both ways
 * over the nonce of the job's placement (right secret, wrong secret, a replayed HELLO, TLS
 * fingerprints), and the limits before authentication (frame size, deadline, connections that
 * stall, too many at once).
 */
class DataServerTest {

  private static final byte[] HASH = HexFormat.of().parseHex("ab".repeat(32));

  @TempDir
  Path blobs;

  private final SharedSecret secret = SharedSecret.random();
  private final List<AutoCloseable> open = new ArrayList<>();
  private final BlockingQueue<Thread> sessions = new ArrayBlockingQueue<>(4);
  private final BlockingQueue<SharedLink> sharedSessions = new ArrayBlockingQueue<>(4);
  private final BlockingQueue<IOException> sessionEnds = new ArrayBlockingQueue<>(4);
  /** The nonce of the job started last, as its placement hands it to the client. */
  private byte[] nonce;

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  /** A data server as a job runs it, on its own thread; its session answers each frame with its payload. */
  private int start(TlsIdentity tls, long deadlineMs, int maxPending) throws IOException {
    return start(tls, deadlineMs, maxPending, 0);
  }

  /** @param memoryLimitMb the job's memory limit, 0 for none */
  private int start(TlsIdentity tls, long deadlineMs, int maxPending, int memoryLimitMb) throws IOException {
    ServerSocket server = tls == null ? new ServerSocket() : tls.serverSocket();
    open.add(server);
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    server.setSoTimeout(200);
    byte[] fingerprint = tls == null ? DataAuth.NO_FINGERPRINT : tls.fingerprint();
    Handshake handshake = new Handshake(secret, fingerprint, new BlobStore(blobs), () -> "job-7", memoryLimitMb);
    nonce = HexFormat.of().parseHex(handshake.nonce());
    DataServer data = new DataServer(server, handshake, deadlineMs, maxPending);
    Thread t = new Thread(() -> data.serve(() -> { }, (client, shared) -> {
      sessions.add(Thread.currentThread());
      if (shared != null) {
        open.add(shared);
        sharedSessions.add(shared);
      }
      try (OutputStream closing = client.out()) {
        while (true) {
          Frames.Frame f = Frames.read(client.in());
          Frames.write(client.out(), Frames.RESULT, f.id(), java.util.Arrays.copyOf(f.payload(), f.length()));
        }
      } catch (IOException e) {
        sessionEnds.add(e); // the test closed the connection, or sent something that failed its check
      }
    }), "test-accept");
    t.setDaemon(true);
    t.start();
    return server.getLocalPort();
  }

  private Socket connect(int port, boolean tls) throws Exception {
    Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
    open.add(s);
    s.setSoTimeout(10_000);
    if (!tls) {
      return s;
    }
    SSLSocket ssl = (SSLSocket) trustAll().getSocketFactory().createSocket(s, "localhost", port, true);
    ssl.startHandshake();
    return ssl;
  }

  /** What a client saw of one exchange. */
  private record Exchange(byte[] jobNonce, byte[] clientNonce, byte[] helloBytes, Frames.Frame answer) {}

  private Exchange hello(Socket s, SharedSecret proving, byte[] fingerprint) throws IOException {
    return hello(s, proving, fingerprint, null);
  }

  /** A HELLO over the last job's nonce offering a shared area (null: none). */
  private Exchange hello(Socket s, SharedSecret proving, byte[] fingerprint, DataMessage.Offer offer) throws IOException {
    return hello(s, proving, nonce, fingerprint, offer);
  }

  /** The client speaks first: its HELLO, proven over {@code jobNonce}, and the job's answer. */
  private static Exchange hello(Socket s, SharedSecret proving, byte[] jobNonce, byte[] fingerprint, DataMessage.Offer offer)
      throws IOException {
    DataInputStream in = new DataInputStream(s.getInputStream());
    byte[] clientNonce = ClusterToken.nonce(SharedSecret.BYTES);
    HexFormat hex = HexFormat.of();
    byte[] hello = DataMessageCodec.encode(new DataMessage.Hello(Frames.PROTOCOL, hex.formatHex(clientNonce),
        hex.formatHex(DataAuth.helloProof(proving, jobNonce, clientNonce, fingerprint)), "c-1", List.of(hex.formatHex(HASH)),
        offer));
    Frames.write(s.getOutputStream(), Frames.HELLO, 1, hello);
    return new Exchange(jobNonce, clientNonce, hello, Frames.read(in));
  }

  /** The keys the job derived for this exchange's connection. */
  private FrameKeys keys(Exchange e) {
    return FrameKeys.derive(secret, e.jobNonce(), e.clientNonce(), e.helloBytes(),
        java.util.Arrays.copyOf(e.answer().payload(), e.answer().length()));
  }

  private static DataMessage.Welcome welcome(Frames.Frame f) {
    assertEquals(Frames.RESULT, f.type(), "a RESULT frame");
    return DataMessageCodec.welcome(f.payload(), f.length());
  }

  private static String refusal(Frames.Frame f) {
    assertEquals(Frames.ERROR, f.type(), "an ERROR frame");
    DataMessage.Failure failure = DataMessageCodec.failure(f.payload(), f.length());
    assertEquals(ErrorKind.INVALID, failure.kind());
    return failure.message();
  }

  /** Sends {@code hello} as the HELLO of a fresh connection, and returns the job's answer. */
  private Frames.Frame rawHello(int port, String hello) throws Exception {
    Socket s = connect(port, false);
    DataInputStream in = new DataInputStream(s.getInputStream());
    Frames.write(s.getOutputStream(), Frames.HELLO, 1, hello.getBytes(StandardCharsets.UTF_8));
    return Frames.read(in);
  }

  /** Whether a fresh connection that sends {@code hello} is refused, reset or closed without an answer. */
  private static boolean notServed(int port, byte[] hello) throws IOException {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      s.setSoTimeout(10_000);
      Frames.write(s.getOutputStream(), Frames.HELLO, 1, hello);
      return closed(s);
    } catch (SocketException refusedOrReset) {
      return true;
    }
  }

  private static boolean closed(Socket s) throws IOException {
    try {
      return s.getInputStream().read() == -1;
    } catch (SocketException reset) {
      return true;
    }
  }

  @Test
  void aClientWithTheSecretIsServedAndTheJobProvesItselfInReturn() throws Exception {
    Set<Thread> earlier = dataConnectionThreads();
    int port = start(null, 10_000, 8);
    Set<Thread> waiting = dataConnectionThreads();
    waiting.removeAll(earlier);
    awaitParked(waiting); // a connection handed over before the thread waits for one would start another thread
    Socket s = connect(port, false);
    Exchange e = hello(s, secret, DataAuth.NO_FINGERPRINT);
    assertEquals(Frames.RESULT, e.answer().type());
    DataMessage.Welcome welcome = welcome(e.answer());
    assertEquals("job-7", welcome.jobId());
    assertEquals(ProcessHandle.current().pid(), welcome.pid());
    assertEquals(List.of(HexFormat.of().formatHex(HASH)), welcome.missing(), "the blobs this host lacks");
    assertNull(welcome.shm(), "no area offered, none mapped");
    assertTrue(DataAuth.verifyWelcome(secret, DataAuth.bytes32(welcome.proof()), e.jobNonce(), e.clientNonce(),
        DataAuth.NO_FINGERPRINT), "the job proves that it holds the secret, over this exchange's nonces");
    Thread session = sessions.poll(5, TimeUnit.SECONDS);
    assertNotNull(session, "the session runs");
    assertTrue(waiting.contains(session), "on the thread that was started before the client connected: " + session);
    FrameKeys keys = keys(e);
    Frames.write(keys.clientOutput(s.getOutputStream()), Frames.CALL, 2, new byte[100_000]);
    assertEquals(100_000, Frames.read(new DataInputStream(keys.clientInput(s.getInputStream()))).length(),
        "after authentication frames may be large, and are sealed both ways");
    assertThrowsConnect(port);
  }

  @Test
  void afterTheHandshakeAFrameThatIsNotSealedClosesTheConnection() throws Exception {
    int port = start(null, 10_000, 8);
    Socket s = connect(port, false);
    Exchange e = hello(s, secret, DataAuth.NO_FINGERPRINT);
    assertEquals(Frames.RESULT, e.answer().type());
    // what a relay that let the handshake through would inject: a frame in clear
    Frames.write(s.getOutputStream(), Frames.CREATE, 2, "{\"impl\":\"Evil\"}".getBytes(StandardCharsets.UTF_8));
    IOException end = sessionEnds.poll(5, TimeUnit.SECONDS);
    assertTrue(end instanceof IntegrityException, "the session refuses it: " + end);
    assertTrue(closed(s), "and the connection closes");
  }

  private static Set<Thread> dataConnectionThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().equals("parl-data-connection")).collect(Collectors.toSet());
  }

  /** Waits (at most 5 s) until each of {@code threads} waits for work. */
  private static void awaitParked(Set<Thread> threads) throws InterruptedException {
    assertFalse(threads.isEmpty(), "the server started a thread for its first connection");
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (threads.stream().anyMatch(t -> t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING)) {
      assertTrue(System.nanoTime() < until, "the server's first connection thread waits for work");
      Thread.sleep(5);
    }
  }

  private static void assertThrowsConnect(int port) {
    try (Socket late = new Socket(InetAddress.getLoopbackAddress(), port)) {
      late.setSoTimeout(5_000);
      assertTrue(closed(late), "the port serves no second client");
    } catch (IOException refused) {
      // the port is closed: as intended
    }
  }

  private static DataMessage.Offer offer(SharedLink area) {
    return new DataMessage.Offer(area.file().toString(), area.size());
  }

  @Test
  void aSharedAreaOfferedByAnAuthenticatedClientIsMappedAndItsFileRemoved() throws Exception {
    int port = start(null, 10_000, 8);
    try (SharedLink area = SharedLink.create(blobs, SharedLink.MIN_HALF)) {
      Exchange e = hello(connect(port, false), secret, DataAuth.NO_FINGERPRINT, offer(area));
      assertEquals(Boolean.TRUE, welcome(e.answer()).shm(), "the job says it mapped the area");
      SharedLink theirs = sharedSessions.poll(5, TimeUnit.SECONDS);
      assertNotNull(theirs, "the session gets the area");
      assertFalse(java.nio.file.Files.exists(area.file()), "both sides mapped it: the job removed the file");
    }
  }

  @Test
  void anOfferFromAClientWithoutTheSecretIsNeverLookedAt() throws Exception {
    int port = start(null, 10_000, 8);
    try (SharedLink area = SharedLink.create(blobs, SharedLink.MIN_HALF)) {
      Socket s = connect(port, false);
      assertTrue(refusal(hello(s, SharedSecret.random(), DataAuth.NO_FINGERPRINT, offer(area)).answer())
          .startsWith(DataAuth.REFUSED));
      assertTrue(java.nio.file.Files.exists(area.file()), "the job did not open it (opening removes it)");
    }
  }

  @Test
  void anAreaOverItsShareOfTheJobsMemoryLimitOrNotAnAreaIsDeclined() throws Exception {
    // an 8 MiB limit allows 1 MiB; the smallest area offered is about 0.5 MiB, this one 2 MiB
    int port = start(null, 10_000, 8, 8);
    try (SharedLink area = SharedLink.create(blobs, 1 << 20)) {
      Exchange e = hello(connect(port, false), secret, DataAuth.NO_FINGERPRINT, offer(area));
      assertEquals(Boolean.FALSE, welcome(e.answer()).shm(), "served, without the area");
      assertTrue(java.nio.file.Files.exists(area.file()));
    }
    int other = start(null, 10_000, 8);
    Path token = java.nio.file.Files.write(blobs.resolve("token"), new byte[SharedLink.areaBytes(SharedLink.MIN_HALF)]);
    Exchange e = hello(connect(other, false), secret, DataAuth.NO_FINGERPRINT,
        new DataMessage.Offer(token.toString(), SharedLink.areaBytes(SharedLink.MIN_HALF)));
    assertEquals(Boolean.FALSE, welcome(e.answer()).shm(), "only a file shaped like an area is mapped");
    assertTrue(java.nio.file.Files.exists(token));
  }

  @Test
  void aWrongSecretGetsOneErrorSayingNothingAboutTheSecretAndTheConnectionCloses() throws Exception {
    int port = start(null, 10_000, 8);
    Socket s = connect(port, false);
    String why = refusal(hello(s, SharedSecret.random(), DataAuth.NO_FINGERPRINT).answer());
    assertTrue(why.startsWith(DataAuth.REFUSED), why);
    assertFalse(why.contains(secret.hex()), why);
    assertTrue(closed(s));
    assertEquals(Frames.RESULT, hello(connect(port, false), secret, DataAuth.NO_FINGERPRINT).answer().type(),
        "the job still serves its client");
  }

  @Test
  void aRecordedHelloCannotBeReplayed() throws Exception {
    int port = start(null, 10_000, 8);
    Exchange recorded = hello(connect(port, false), secret, DataAuth.NO_FINGERPRINT);
    assertEquals(Frames.RESULT, recorded.answer().type());
    assertTrue(notServed(port, recorded.helloBytes()), "the job serves one client: its port closed when the first one got in");
    int other = start(null, 10_000, 8); // the next actor's port (a new nonce), same secret: replays must fail even there
    Socket s = connect(other, false);
    DataInputStream in = new DataInputStream(s.getInputStream());
    Frames.write(s.getOutputStream(), Frames.HELLO, 1, recorded.helloBytes());
    assertTrue(refusal(Frames.read(in)).startsWith(DataAuth.REFUSED), "a fresh nonce defeats the replay");
    assertEquals(Frames.RESULT, hello(connect(other, false), secret, DataAuth.NO_FINGERPRINT).answer().type(),
        "its own client, over its nonce, still gets in");
  }

  @Test
  void beforeAuthenticationALargeFrameIsRefusedFromItsHeaderAlone() throws Exception {
    int port = start(null, 10_000, 8);
    Socket s = connect(port, false);
    DataInputStream in = new DataInputStream(s.getInputStream());
    // the 13-byte header in one write: the job may refuse and close as soon as it has read the length
    ByteBuffer header = ByteBuffer.allocate(13).putInt((1 << 30) + 9).put(Frames.HELLO).putLong(1);
    s.getOutputStream().write(header.array());
    s.getOutputStream().flush();
    String why = refusal(Frames.read(in));
    assertTrue(why.contains("over the limit of " + Frames.PRE_AUTH_MAX_PAYLOAD), why);
    assertTrue(closed(s));
  }

  @Test
  void anOlderClientIsToldToUseTheSameVersion() throws Exception {
    String why = refusal(rawHello(start(null, 10_000, 8), "{\"protocol\":2,\"token\":\"x\"}"));
    assertEquals(DataAuth.REFUSED + "this job speaks parl protocol " + Frames.PROTOCOL + " and the client 2: use the same parl "
        + "version on clients and workers", why);
  }

  @Test
  void aMalformedHelloIsRefusedWithTheReason() throws Exception {
    int port = start(null, 10_000, 8);
    String hello = "{\"type\":\"Hello\",\"protocol\":" + Frames.PROTOCOL + ",\"nonce\":\"" + "ab".repeat(32)
        + "\",\"proof\":\"" + "ab".repeat(32) + "\",\"clientId\":\"c\",\"blobs\":";
    assertEquals(DataAuth.REFUSED + "malformed HELLO: field 'blobs[0]' must be a string, got Integer \"1\"",
        refusal(rawHello(port, hello + "[1]}")));
    assertEquals(DataAuth.REFUSED + "not valid JSON: Unexpected end-of-input: expected close marker for Object",
        refusal(rawHello(port, hello + "[]")));
    assertTrue(refusal(rawHello(port, hello + "[]}")).startsWith(DataAuth.REFUSED + "the client did not prove"),
        "well formed, without the secret");
  }

  @Test
  void silentAndGreedyConnectionsDoNotHoldUpTheClient() throws Exception {
    int port = start(null, 30_000, 8);
    connect(port, false); // says nothing
    Socket greedy = connect(port, false);
    new DataOutputStream(greedy.getOutputStream()).writeInt(Integer.MAX_VALUE);
    long t0 = System.nanoTime();
    assertEquals(Frames.RESULT, hello(connect(port, false), secret, DataAuth.NO_FINGERPRINT).answer().type());
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertTrue(ms < 5_000, "the client waited " + ms + " ms");
  }

  @Test
  void aConnectionThatStallsIsClosedAtTheDeadline() throws Exception {
    Socket s = connect(start(null, 300, 8), false); // says nothing
    long t0 = System.nanoTime();
    assertTrue(closed(s));
    assertTrue((System.nanoTime() - t0) / 1_000_000 < 5_000);
  }

  @Test
  void connectionsOverTheBoundAreRefusedAtOnce() throws Exception {
    int port = start(null, 30_000, 2);
    for (int i = 0; i < 2; i++) {
      connect(port, false); // accepted in the order they connect, and silent
    }
    Socket third = connect(port, false);
    assertEquals(DataAuth.BUSY, refusal(Frames.read(new DataInputStream(third.getInputStream()))));
    assertTrue(closed(third));
  }

  @Test
  void withTlsBothProofsAreBoundToTheCertificateTheClientSaw() throws Exception {
    TlsIdentity a = identity("job-a.p12");
    int port = start(a, 10_000, 8);
    String why = refusal(hello(connect(port, true), secret, DataAuth.NO_FINGERPRINT).answer());
    assertTrue(why.startsWith(DataAuth.REFUSED), "a proof without the certificate (a relay in clear): " + why);
    byte[] other = identity("job-b.p12").fingerprint();
    why = refusal(hello(connect(port, true), secret, other).answer());
    assertTrue(why.startsWith(DataAuth.REFUSED), "a proof over another certificate (a relay with its own): " + why);
    SSLSocket s = (SSLSocket) connect(port, true);
    byte[] shown = DataAuth.fingerprint(s.getSession().getPeerCertificates()[0]);
    assertArrayEquals(a.fingerprint(), shown);
    Exchange e = hello(s, secret, shown);
    assertEquals(Frames.RESULT, e.answer().type());
    byte[] proof = DataAuth.bytes32(welcome(e.answer()).proof());
    assertTrue(DataAuth.verifyWelcome(secret, proof, e.jobNonce(), e.clientNonce(), shown));
    assertFalse(DataAuth.verifyWelcome(secret, proof, e.jobNonce(), e.clientNonce(), other),
        "the job's proof does not hold for another certificate");
  }

  @Test
  void aPlainTextPeerOnATlsPortIsToldNothing() throws Exception {
    int port = start(identity("job-a.p12"), 2_000, 8);
    Socket s = connect(port, false);
    Frames.write(s.getOutputStream(), Frames.HELLO, 1, "{}".getBytes(StandardCharsets.UTF_8));
    byte[] got = readToEnd(s.getInputStream());
    assertTrue(got.length < Frames.HEADER || (got[4] != Frames.RESULT && got[4] != Frames.ERROR), "no answer in clear");
  }

  private static byte[] readToEnd(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try {
      int c = in.read();
      while (c >= 0) {
        b.write(c);
        c = in.read();
      }
    } catch (SocketException reset) {
      // closed with a reset
    }
    return b.toByteArray();
  }

  /** A key and certificate made with keytool for these tests (password {@code testtest}). */
  static TlsIdentity identity(String resource) throws Exception {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = DataServerTest.class.getResourceAsStream(resource)) {
      ks.load(in, "testtest".toCharArray());
    }
    return new TlsIdentity((PrivateKey) ks.getKey("job", "testtest".toCharArray()), (X509Certificate) ks.getCertificate("job"));
  }

  static SSLContext trustAll() throws GeneralSecurityException {
    SSLContext ctx = SSLContext.getInstance("TLSv1.3");
    X509TrustManager trustAll = new X509TrustManager() {
      @Override
      public void checkClientTrusted(X509Certificate[] chain, String authType) {
        // a test client
      }

      @Override
      public void checkServerTrusted(X509Certificate[] chain, String authType) {
        // checked through the proofs
      }

      @Override
      public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
      }
    };
    ctx.init(null, new TrustManager[] {trustAll}, null);
    return ctx;
  }
}
