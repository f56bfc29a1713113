package org.parl.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.parl.AuthenticationException;
import org.parl.ParlException;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.security.SharedSecret;
import org.parl.internal.wire.BadFrameException;
import org.parl.internal.wire.DataAuth;
import org.parl.internal.wire.DataMessage;
import org.parl.internal.wire.DataMessageCodec;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.Frames;
import org.parl.internal.wire.SharedLink;

/**
 * The client's side of the data handshake against fake jobs on loopback: it proves itself without
 * sending the secret, and refuses a job that cannot prove itself in return (another secret, a
 * replayed answer, a proof over another TLS certificate).
 */
class DataHelloTest {

  private static final String A = "a".repeat(64);
  private static final String B = "b".repeat(64);

  @TempDir
  Path dir;

  private final SharedSecret secret = SharedSecret.random();
  private final List<AutoCloseable> open = new ArrayList<>();
  /** The nonce of the job made last, as its placement gives it; one of the right form for fakes of other kinds. */
  private String jobNonce = "ab".repeat(32);

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  /** What a fake job answers to a client's HELLO. */
  private interface Welcome {
    /** The payload of the RESULT, or of an ERROR for a {@link DataMessage.Failure}. */
    DataMessage.ToClient answer(byte[] jobNonce, DataMessage.Hello hello, byte[] fingerprint) throws IOException;
  }

  /**
   * A job whose placement hands out a fresh nonce ({@link #jobNonce}, which {@link #open} passes on)
   * and that answers each connection's HELLO with {@code welcome}.
   */
  private int job(String certificate, Welcome welcome) throws Exception {
    ServerSocket server = certificate == null ? new ServerSocket() : tls(certificate);
    open.add(server);
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    byte[] fingerprint = certificate == null ? DataAuth.NO_FINGERPRINT : fingerprint(certificate);
    byte[] nonce = ClusterToken.nonce(SharedSecret.BYTES);
    jobNonce = HexFormat.of().formatHex(nonce);
    Thread t = new Thread(() -> {
      while (!server.isClosed()) {
        try (Socket s = server.accept()) {
          DataInputStream in = new DataInputStream(s.getInputStream());
          Frames.Frame hello = Frames.read(in);
          DataMessage.ToClient answer = welcome.answer(nonce, DataMessageCodec.hello(hello.payload(), hello.length()),
              fingerprint);
          Frames.write(s.getOutputStream(), answer instanceof DataMessage.Failure ? Frames.ERROR : Frames.RESULT, hello.id(),
              DataMessageCodec.encode(answer));
          in.read(); // until the client closes
        } catch (IOException e) {
          // next connection, or closed by the test
        }
      }
    }, "fake-job");
    t.setDaemon(true);
    t.start();
    return server.getLocalPort();
  }

  /** An honest job holding {@code s}: it proves over the client's nonce, and lacks blob A. */
  private static Welcome honest(SharedSecret s) {
    return (jobNonce, hello, fingerprint) -> {
      byte[] clientNonce = DataAuth.bytes32(hello.nonce());
      byte[] proof = DataAuth.welcomeProof(s, jobNonce, clientNonce, fingerprint);
      return new DataMessage.Welcome("job-1", 7, List.of(A), HexFormat.of().formatHex(proof), null);
    };
  }

  private DataHello.Opened open(int port, boolean tls) throws IOException {
    DataHello.Opened o = DataHello.open("127.0.0.1", port, 5_000, tls, secret.hex(), jobNonce, "c-1", List.of(A, B), null);
    open.add(o.connection()::closeSocket);
    return o;
  }

  @Test
  void bothSidesProveTheSecretWhichNeverTravels() throws Exception {
    AtomicReference<DataMessage.Hello> seen = new AtomicReference<>();
    int port = job(null, (nonce, hello, fp) -> {
      seen.set(hello);
      assertTrue(DataAuth.verifyHello(secret, DataAuth.bytes32(hello.proof()), nonce, DataAuth.bytes32(hello.nonce()), fp),
          "the client's proof checks out");
      return honest(secret).answer(nonce, hello, fp);
    });
    assertEquals(Set.of(A), open(port, false).missing());
    assertEquals(Frames.PROTOCOL, seen.get().protocol());
    assertEquals(List.of(A, B), seen.get().blobs());
    assertEquals("c-1", seen.get().clientId());
    assertFalse(new String(DataMessageCodec.encode(seen.get()), StandardCharsets.UTF_8).contains(secret.hex()),
        "the secret is not in the HELLO");
  }

  /** A job that maps the offered area (true), declines it (false) or ignores it (null), as an older job would. */
  private int sharing(Boolean mapped, AtomicReference<DataMessage.Offer> offered) throws Exception {
    return job(null, (nonce, hello, fp) -> {
      offered.set(hello.shm());
      DataMessage.Welcome answer = (DataMessage.Welcome) honest(secret).answer(nonce, hello, fp);
      return new DataMessage.Welcome(answer.jobId(), answer.pid(), answer.missing(), answer.proof(), mapped);
    });
  }

  @Test
  void anAreaTheJobMappedServesTheConnectionAndItsFileIsRemoved() throws Exception {
    AtomicReference<DataMessage.Offer> offered = new AtomicReference<>();
    int port = sharing(true, offered);
    SharedLink offer = SharedLink.create(dir, SharedLink.MIN_HALF);
    open.add(offer);
    DataHello.Opened o = DataHello.open("127.0.0.1", port, 5_000, false, secret.hex(), jobNonce, "c-1", List.of(A), offer);
    open.add(o.connection()::closeSocket);
    assertEquals(offer.file().toString(), offered.get().file(), "the HELLO names the area");
    assertEquals(offer.size(), offered.get().size());
    assertSame(offer, o.connection().shared());
    assertFalse(Files.exists(offer.file()), "removed once the job has answered");
  }

  @Test
  void anAreaTheJobDeclinedOrIgnoredIsDroppedAndArraysKeepToTheSocket() throws Exception {
    for (Boolean mapped : new Boolean[] {false, null}) {
      int port = sharing(mapped, new AtomicReference<>());
      SharedLink offer = SharedLink.create(dir, SharedLink.MIN_HALF);
      open.add(offer);
      DataHello.Opened o = DataHello.open("127.0.0.1", port, 5_000, false, secret.hex(), jobNonce, "c-1", List.of(A), offer);
      open.add(o.connection()::closeSocket);
      assertNull(o.connection().shared(), "answer " + mapped);
      assertFalse(Files.exists(offer.file()));
    }
  }

  @Test
  void anOfferToAJobThatFailsToProveItselfIsRemoved() throws Exception {
    int port = job(null, honest(SharedSecret.random()));
    SharedLink offer = SharedLink.create(dir, SharedLink.MIN_HALF);
    open.add(offer);
    assertThrows(AuthenticationException.class,
        () -> DataHello.open("127.0.0.1", port, 5_000, false, secret.hex(), jobNonce, "c-1", List.of(A), offer));
    assertFalse(Files.exists(offer.file()));
  }

  @Test
  void aJobWithAnotherSecretIsRefused() throws Exception {
    int port = job(null, honest(SharedSecret.random()));
    AuthenticationException e = assertThrows(AuthenticationException.class, () -> open(port, false));
    assertTrue(e.getMessage().startsWith(DataAuth.REFUSED), e.getMessage());
  }

  @Test
  void aReplayedAnswerIsRefused() throws Exception {
    AtomicReference<DataMessage.ToClient> recorded = new AtomicReference<>();
    int port = job(null, (nonce, hello, fp) -> {
      if (recorded.get() == null) {
        recorded.set(honest(secret).answer(nonce, hello, fp));
      }
      return recorded.get();
    });
    open(port, false).connection().closeSocket(); // the fake job serves one connection at a time
    assertThrows(AuthenticationException.class, () -> open(port, false), "the answer to an earlier exchange");
  }

  @Test
  void withTlsTheJobsProofMustBeOverTheCertificateShown() throws Exception {
    assertEquals(Set.of(A), open(job("job-a.p12", honest(secret)), true).missing());
    byte[] other = fingerprint("job-b.p12");
    int relay = job("job-a.p12", (nonce, hello, fp) -> honest(secret).answer(nonce, hello, other));
    assertThrows(AuthenticationException.class, () -> open(relay, true),
        "a relay showing its own certificate to a job that proves over another");
  }

  @Test
  void aJobsRefusalIsAnAuthenticationFailure() throws Exception {
    int port = job(null, (nonce, hello, fp) -> new DataMessage.Failure(ErrorKind.INVALID,
        DataAuth.REFUSED + "the client did not prove that it holds this job's credential"));
    AuthenticationException e = assertThrows(AuthenticationException.class, () -> open(port, false));
    assertTrue(e.getMessage().contains("did not prove"), e.getMessage());
  }

  @Test
  void aBusyJobIsAskedAgain() throws Exception {
    ServerSocket server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
    open.add(server);
    AtomicInteger connections = new AtomicInteger();
    int port = job(null, honest(secret));
    Thread t = new Thread(() -> {
      try (Socket first = server.accept()) {
        connections.incrementAndGet();
        Frames.write(first.getOutputStream(), Frames.ERROR, 0,
            DataMessageCodec.encode(new DataMessage.Failure(ErrorKind.INVALID, DataAuth.BUSY)));
        try (Socket second = server.accept(); Socket job = new Socket(InetAddress.getLoopbackAddress(), port)) {
          connections.incrementAndGet();
          relay(second, job);
        }
      } catch (IOException e) {
        // closed by the test
      }
    });
    t.setDaemon(true);
    t.start();
    assertEquals(Set.of(A), open(server.getLocalPort(), false).missing());
    assertEquals(2, connections.get());
  }

  @Test
  void aMalformedAnswerIsAnAuthenticationFailureThatSaysWhy() throws Exception {
    ServerSocket server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
    open.add(server);
    Thread t = new Thread(() -> {
      try (Socket s = server.accept()) {
        DataInputStream in = new DataInputStream(s.getInputStream());
        Frames.Frame hello = Frames.read(in);
        Frames.write(s.getOutputStream(), Frames.RESULT, hello.id(),
            "{\"type\":\"Welcome\",\"jobId\":\"j\",\"pid\":1}".getBytes(StandardCharsets.UTF_8));
        in.read();
      } catch (IOException e) {
        // closed by the test
      }
    });
    t.setDaemon(true);
    t.start();
    AuthenticationException e = assertThrows(AuthenticationException.class, () -> open(server.getLocalPort(), false));
    assertTrue(e.getMessage().startsWith(DataAuth.REFUSED), e.getMessage());
    assertTrue(e.getMessage().endsWith("malformed welcome: field 'proof' must be 32 bytes as 64 hex digits"), e.getMessage());
  }

  @Test
  void aHugeFirstFrameIsRefusedFromItsHeader() throws Exception {
    ServerSocket server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
    open.add(server);
    Thread t = new Thread(() -> {
      try (Socket s = server.accept()) {
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        out.writeInt(Integer.MAX_VALUE);
        out.flush();
        s.getInputStream().read();
      } catch (IOException e) {
        // closed by the test
      }
    });
    t.setDaemon(true);
    t.start();
    assertThrows(BadFrameException.class, () -> open(server.getLocalPort(), false));
  }

  @Test
  void aJobOfTheOlderProtocolThatSpeaksFirstIsNamedAsSuch() throws Exception {
    ServerSocket server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
    open.add(server);
    Thread t = new Thread(() -> {
      try (Socket s = server.accept()) {
        byte[] challenge = java.nio.ByteBuffer.allocate(4 + SharedSecret.BYTES).putInt(6).array();
        Frames.write(s.getOutputStream(), Frames.CHALLENGE, 0, challenge);
        s.getInputStream().read();
      } catch (IOException e) {
        // closed by the test
      }
    });
    t.setDaemon(true);
    t.start();
    ParlException e = assertThrows(ParlException.class, () -> open(server.getLocalPort(), false));
    assertEquals("the job at 127.0.0.1:" + server.getLocalPort() + " speaks an older parl protocol: use the same parl "
        + "version on clients and workers", e.getMessage());
  }

  /** Copies bytes both ways until either side closes. */
  private static void relay(Socket a, Socket b) throws IOException {
    Thread back = new Thread(() -> copy(b, a));
    back.setDaemon(true);
    back.start();
    copy(a, b);
  }

  private static void copy(Socket from, Socket to) {
    try {
      from.getInputStream().transferTo(to.getOutputStream());
    } catch (IOException e) {
      // one side closed
    }
  }

  private static KeyStore store(String resource) throws Exception {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = DataHelloTest.class.getResourceAsStream(resource)) {
      ks.load(in, "testtest".toCharArray());
    }
    return ks;
  }

  private static byte[] fingerprint(String resource) throws Exception {
    return DataAuth.fingerprint(store(resource).getCertificate("job"));
  }

  private static ServerSocket tls(String resource) throws Exception {
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(store(resource), "testtest".toCharArray());
    SSLContext ctx = SSLContext.getInstance("TLSv1.3");
    ctx.init(kmf.getKeyManagers(), null, null);
    return (SSLServerSocket) ctx.getServerSocketFactory().createServerSocket();
  }
}
