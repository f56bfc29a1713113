package org.parl.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.PfxOptions;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.ActorLostException;
import org.parl.AuthenticationException;
import org.parl.ConnectOptions;
import org.parl.ParlException;
import org.parl.internal.net.HostPort;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.JsonLines;
import org.parl.internal.wire.gateway.ClusterDescription;
import org.parl.internal.wire.gateway.GatewayAuth;
import org.parl.internal.wire.gateway.GatewayCodec;
import org.parl.internal.wire.gateway.GatewayReply;
import org.parl.internal.wire.gateway.GatewayRequest;
import org.parl.internal.wire.gateway.ServerHandshake;

/**
 * The client's side of the gateway's authentication, against fake gateways with a self-signed
 * certificate (made with keytool: the client must not need BouncyCastle, even in its tests): the
 * right gateway is trusted, a gateway that refuses or cannot prove the token is reported with an
 * {@link AuthenticationException} that says where the token came from, and nothing is sent to it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayConnectionTest {

  private static final ClusterToken TOKEN = ClusterToken.of("e5".repeat(32), "the client's token");
  private static final ClusterToken OTHER = ClusterToken.of("f6".repeat(32), "another token");
  private static final String PASSWORD = "test-password";

  private Vertx vertx;
  private PfxOptions keyCert;
  private byte[] fingerprint;

  @BeforeAll
  void start() throws Exception {
    vertx = Vertx.vertx();
    Path dir = Files.createTempDirectory("parl-gateway-test");
    Path store = dir.resolve("gateway.p12");
    Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
        "-genkeypair", "-alias", "gw", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=test gateway",
        "-validity", "2", "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", PASSWORD,
        "-keypass", PASSWORD).redirectErrorStream(true).start();
    String output = new String(keytool.getInputStream().readAllBytes());
    assertTrue(keytool.waitFor(60, TimeUnit.SECONDS) && keytool.exitValue() == 0, "keytool: " + output);
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      ks.load(in, PASSWORD.toCharArray());
    }
    fingerprint = GatewayAuth.fingerprint(ks.getCertificate("gw"));
    keyCert = new PfxOptions().setPath(store.toString()).setPassword(PASSWORD);
  }

  @AfterAll
  void stop() throws Exception {
    vertx.close().await(20, TimeUnit.SECONDS);
  }

  /** A TLS server with the test certificate; returns its port. */
  private int server(Handler<NetSocket> onConnect) throws Exception {
    NetServer s = vertx.createNetServer(new NetServerOptions().setHost("127.0.0.1").setPort(0).setSsl(true)
        .setKeyCertOptions(keyCert));
    return s.connectHandler(onConnect).listen().await(10, TimeUnit.SECONDS).actualPort();
  }

  /** A gateway that holds {@code token}, answers pings once authenticated, and records every line. */
  private int gateway(ClusterToken token, Queue<String> heard) throws Exception {
    return gateway(token, heard, (socket, r) -> JsonLines.write(socket, GatewayCodec.encode(new GatewayReply.Done(r.id()))));
  }

  /** A gateway that holds {@code token}, records every line, and hands each request after the authentication to {@code answer}. */
  private int gateway(ClusterToken token, Queue<String> heard, BiConsumer<NetSocket, GatewayRequest> answer) throws Exception {
    return server(socket -> {
      ServerHandshake handshake = new ServerHandshake(token, fingerprint);
      boolean[] in = new boolean[1];
      JsonLines.write(socket, GatewayCodec.encode(handshake.challenge()));
      JsonLines.readLines(socket, line -> {
        heard.add(line.toString());
        GatewayRequest r = GatewayCodec.request(line);
        Optional<GatewayReply.Authenticated> proven = in[0] || !(r instanceof GatewayRequest.Authenticate a)
            ? Optional.empty() : handshake.check(a);
        if (in[0]) {
          answer.accept(socket, r);
        } else if (proven.isPresent()) {
          in[0] = true;
          JsonLines.write(socket, GatewayCodec.encode(proven.get()));
        } else {
          JsonLines.write(socket, GatewayCodec.encode(new GatewayReply.Failed(r.id(), ErrorKind.UNAUTHENTICATED,
              "authentication failed")));
          socket.close();
        }
      }, bad -> {});
    });
  }

  /** A gateway that answers pings at once and welcomes a hello {@code delayMs} after it came, as a standby rebuilding its pool does. */
  private int welcomingAfter(long delayMs) throws Exception {
    ClusterDescription cluster = new ClusterDescription("127.0.0.1:8010", "parl-test", "127.0.0.1:5701", "cpu", 8,
        "https://127.0.0.1:8110/", false, "member-1");
    return gateway(TOKEN, new ConcurrentLinkedQueue<>(), (socket, r) -> {
      if (r instanceof GatewayRequest.ClientHello) {
        vertx.setTimer(delayMs, t -> JsonLines.write(socket, GatewayCodec.encode(
            new GatewayReply.Welcome(r.id(), cluster, "c-resumed", List.of(), null))));
      } else {
        JsonLines.write(socket, GatewayCodec.encode(new GatewayReply.Done(r.id())));
      }
    });
  }

  /** Runs on one Vert.x context, as the client does, and waits for the result. */
  private <T> T onContext(Supplier<Future<T>> work) throws Exception {
    Promise<T> p = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v -> work.get().onComplete(p));
    return p.future().await(30, TimeUnit.SECONDS);
  }

  private GatewayConnection connect(int port, ClusterToken token, long timeoutMs) throws Exception {
    return onContext(() -> GatewayConnection.connect(vertx, new HostPort("127.0.0.1", port), token,
        Future.succeededFuture(), timeoutMs));
  }

  @Test
  void aGatewayWithTheSameTokenIsTrusted() throws Exception {
    Queue<String> heard = new ConcurrentLinkedQueue<>();
    GatewayConnection g = connect(gateway(TOKEN, heard), TOKEN, 5_000);
    assertEquals(new GatewayReply.Done(2), onContext(() -> g.request(GatewayRequest.Ping::new, GatewayReply.Done.class, 5_000)));
    assertEquals(2, heard.size(), "the answer to the challenge, then the ping: " + heard);
    onContext(g::close);
  }

  @Test
  void aRefusedTokenIsReportedWithItsSource() throws Exception {
    Queue<String> heard = new ConcurrentLinkedQueue<>();
    int port = gateway(OTHER, heard);
    Exception e = assertThrows(Exception.class, () -> connect(port, TOKEN, 5_000));
    assertInstanceOf(AuthenticationException.class, e);
    assertTrue(e.getMessage().contains("refused the cluster token from the client's token"), e.getMessage());
    assertEquals(1, heard.size(), "only the answer to the challenge was sent: " + heard);
  }

  @Test
  void aGatewayThatCannotProveTheTokenIsToldNothing() throws Exception {
    Queue<String> heard = new ConcurrentLinkedQueue<>();
    int port = server(socket -> {
      JsonLines.write(socket, GatewayCodec.encode(new GatewayReply.Challenge("ab".repeat(32))));
      JsonLines.readLines(socket, line -> {
        heard.add(line.toString());
        long id = GatewayCodec.request(line).id();
        JsonLines.write(socket, GatewayCodec.encode(new GatewayReply.Authenticated(id, "cd".repeat(32))));
      }, bad -> {});
    });
    Exception e = assertThrows(Exception.class, () -> connect(port, TOKEN, 5_000));
    assertInstanceOf(AuthenticationException.class, e);
    assertTrue(e.getMessage().contains("did not prove that it holds the cluster token from the client's token"), e.getMessage());
    assertEquals(1, heard.size(), "nothing but the answer to the challenge was sent: " + heard);
  }

  @Test
  void aServerThatDoesNotChallengeTimesOut() throws Exception {
    int port = server(socket -> socket.handler(b -> {}));
    long t0 = System.nanoTime();
    Exception e = assertThrows(Exception.class, () -> connect(port, TOKEN, 500));
    assertInstanceOf(ParlException.class, e);
    assertTrue(e.getMessage().contains("did not start authentication within 500 ms"), e.getMessage());
    assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) < 10_000);
  }

  /**
   * A standby's gateway answers a resume hello only once its JobCenter is active: a resume waits for
   * that answer past the connect timeout, within its own time; a first connect does not.
   */
  @Test
  void aResumeWaitsForAWelcomeThatComesAfterTheConnectTimeout() throws Exception {
    GatewayFailover failover = GatewayFailover.of(vertx, List.of(new HostPort("127.0.0.1", welcomingAfter(8_000))), TOKEN,
        Future.succeededFuture(), 5_000);
    Function<Long, GatewayRequest> hello = id -> new GatewayRequest.ClientHello(id, "test", "here", 1L, null, List.of(), null);
    Exception e = assertThrows(Exception.class, () -> onContext(() -> failover.connect(hello)));
    assertTrue(e.getMessage().contains("did not answer ClientHello"), e.getMessage());
    GatewayFailover.Connected resumed = onContext(() -> failover.resume(hello));
    assertEquals("c-resumed", resumed.welcome().clientId());
    onContext(resumed.gateway()::close);
  }

  /** Lines cut anywhere by the network, or several in one read, arrive whole and in order; empty lines are skipped. */
  @Test
  void linesArriveWholeHoweverTheyAreCut() throws Exception {
    GatewayConnection g = connect(gateway(TOKEN, new ConcurrentLinkedQueue<>(), (socket, r) -> {
      byte[] ended = GatewayCodec.encode(new GatewayReply.JobEnded("j-1", "w-1", "it exited", false));
      byte[] done = GatewayCodec.encode(new GatewayReply.Done(r.id()));
      Buffer all = Buffer.buffer().appendString("\n\n").appendBytes(ended).appendString("\n").appendBytes(done)
          .appendString("\n");
      int inEvent = 2 + ended.length / 2;
      int inAnswer = 2 + ended.length + 1 + done.length / 2;
      socket.write(all.getBuffer(0, inEvent));
      vertx.setTimer(50, t -> socket.write(all.getBuffer(inEvent, inAnswer)));
      vertx.setTimer(100, t -> socket.write(all.getBuffer(inAnswer, all.length())));
    }), TOKEN, 5_000);
    Queue<String> ended = new ConcurrentLinkedQueue<>();
    onContext(() -> {
      g.onJobEnded(e -> ended.add(e.jobId()));
      return Future.succeededFuture();
    });
    assertEquals(new GatewayReply.Done(2), onContext(() -> g.request(GatewayRequest.Ping::new, GatewayReply.Done.class, 5_000)));
    assertEquals(List.of("j-1"), List.copyOf(ended), "the event before the answer, from the same reads");
    onContext(g::close);
  }

  /** A master that sends a line longer than the limit is dropped after that many bytes: the client's memory stays bounded. */
  @Test
  void aLineLongerThanTheLimitEndsTheConnection() throws Exception {
    Promise<Void> serverSawClose = Promise.promise();
    GatewayConnection g = connect(gateway(TOKEN, new ConcurrentLinkedQueue<>(), (socket, r) -> {
      socket.closeHandler(v -> serverSawClose.tryComplete());
      byte[] junk = new byte[64 * 1024];
      Arrays.fill(junk, (byte) 'x');
      for (int i = 0; i <= JsonLines.MAX_LINE / junk.length; i++) {
        socket.write(Buffer.buffer(junk));
      }
    }), TOKEN, 5_000);
    Queue<String> lost = new ConcurrentLinkedQueue<>();
    onContext(() -> {
      g.onLost(lost::add);
      return Future.succeededFuture();
    });
    Exception e = assertThrows(Exception.class,
        () -> onContext(() -> g.request(GatewayRequest.Ping::new, GatewayReply.Done.class, 20_000)));
    assertInstanceOf(ActorLostException.class, e);
    assertTrue(e.getMessage().contains("closed: the master stopped or died"), e.getMessage());
    assertEquals(1, lost.size(), "the loss is said once: " + lost);
    serverSawClose.future().await(10, TimeUnit.SECONDS);
  }

  /**
   * A master that sends lines faster than the client's context takes them is held back by TCP once
   * 2 MiB wait there, instead of filling the client's memory.
   */
  @Test
  void aFloodingMasterIsHeldBackWhileTheClientIsBusy() throws Exception {
    AtomicLong sent = new AtomicLong();
    Buffer event = Buffer.buffer(GatewayCodec.encode(new GatewayReply.JobEnded("j-1", "w-1", "x".repeat(900), false)))
        .appendString("\n");
    AtomicBoolean flooding = new AtomicBoolean(true);
    int port = gateway(TOKEN, new ConcurrentLinkedQueue<>(), (socket, r) -> {
      JsonLines.write(socket, GatewayCodec.encode(new GatewayReply.Done(r.id())));
      Handler<Void> flood = new Handler<>() { // 64 lines at a time, each batch flushed before the next
        @Override
        public void handle(Void v) {
          for (int i = 0; i < 64 && flooding.get(); i++) {
            socket.write(event.copy());
            sent.addAndGet(event.length());
          }
          if (!flooding.get()) {
            return;
          }
          if (socket.writeQueueFull()) {
            socket.drainHandler(this);
          } else {
            vertx.getOrCreateContext().runOnContext(this);
          }
        }
      };
      vertx.getOrCreateContext().runOnContext(flood);
    });
    Vertx client = Vertx.vertx(); // its own event loops: the master's go on while the client's context is busy
    try {
      Context context = client.getOrCreateContext();
      AtomicLong taken = new AtomicLong();
      AtomicBoolean busyOver = new AtomicBoolean();
      CountDownLatch takenAfter = new CountDownLatch(1_000);
      Promise<GatewayReply.Done> pinged = Promise.promise();
      context.runOnContext(v -> GatewayConnection.connect(client, new HostPort("127.0.0.1", port), TOKEN,
          Future.succeededFuture(), 5_000).compose(g -> {
            g.onJobEnded(e -> {
              taken.incrementAndGet();
              if (busyOver.get()) {
                takenAfter.countDown();
              }
            });
            return g.request(GatewayRequest.Ping::new, GatewayReply.Done.class, 5_000);
          }).onComplete(pinged));
      pinged.future().await(30, TimeUnit.SECONDS);
      context.runOnContext(v -> {
        try {
          Thread.sleep(4_500); // a client busy on its context: in a test only
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        busyOver.set(true);
      });
      Thread.sleep(1_500); // the 2 MiB the client holds, and the sockets' buffers, fill
      long filled = sent.get();
      Thread.sleep(2_000);
      long more = sent.get() - filled;
      assertTrue(more < 1L << 20, "the master sent " + (more >> 10) + " KiB more while the client was busy");
      assertTrue(takenAfter.await(20, TimeUnit.SECONDS), "lines are taken again once the client is free");
    } finally {
      flooding.set(false);
      client.close().await(20, TimeUnit.SECONDS);
    }
  }

  /** Closing does not wait for lines that a master which stopped reading will never take. */
  @Test
  void aCloseDoesNotWaitForAMasterThatStoppedReading() throws Exception {
    int port = server(NetSocket::pause); // after the TLS handshake, nothing more is read
    GatewaySocket socket = GatewaySocket.open(new HostPort("127.0.0.1", port), 5_000);
    byte[] line = new byte[1 << 20];
    Arrays.fill(line, (byte) 'x');
    for (int i = 0; i < 64; i++) { // far more than the kernel's buffers hold
      socket.write(line);
    }
    long t0 = System.nanoTime();
    socket.close().get(20, TimeUnit.SECONDS);
    assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) < 10_000);
  }

  @Test
  void withoutAUsableTokenConnectFailsBeforeReachingAnything() {
    for (ConnectOptions o : List.of(
        new ConnectOptions("127.0.0.1:1").setTokenFile(Path.of("/nonexistent/parl-token")),
        new ConnectOptions("127.0.0.1:1").setToken("too short"))) {
      Exception e = assertThrows(Exception.class, () -> ParlClientImpl.connect(null, o).await(30, TimeUnit.SECONDS));
      assertInstanceOf(AuthenticationException.class, e);
      assertTrue(e.getMessage().contains("/nonexistent/parl-token") || e.getMessage().contains("ConnectOptions.setToken"),
          e.getMessage());
    }
  }
}
