package org.parl.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.AuthenticationException;
import org.parl.cluster.ClusterInfo;
import org.parl.internal.net.HostPort;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.wire.JsonLines;
import org.parl.internal.wire.gateway.ClientHandshake;
import org.parl.internal.wire.gateway.ClusterDescription;
import org.parl.internal.wire.gateway.GatewayCodec;
import org.parl.internal.wire.gateway.GatewayReply;
import org.parl.internal.wire.gateway.GatewayRequest;
import org.parl.node.BlockingGateway;
import org.parl.tls.ClusterKeys;

/**
 * The gateway's door with real TLS and the cluster's certificate: the token's holders get in
 * (BlockingGateway, as workers, monitors and {@code parl status} do), everyone else gets one
 * refusal that tells nothing about the cluster, and nothing they send is served.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayDoorTest {

  private static final ClusterToken TOKEN = ClusterToken.of("c3".repeat(32), "the test token");
  private static final ClusterToken OTHER = ClusterToken.of("d4".repeat(32), "another token");
  private static final String SECRET_NAME = "parl-secret-cluster-name";
  private static final String MEMBER = "10.9.8.7:5701";
  private static final ClusterDescription CLUSTER =
      new ClusterDescription("127.0.0.1:8010", SECRET_NAME, MEMBER, "cpu", 8, "https://10.9.8.7:8110/", false,
          "0b7e1c2a-5d1f-4e8a-9c3b-2f6d8e4a1b70");
  private static final ClusterKeys KEYS = ClusterKeys.derive(TOKEN);
  private static final long DEADLINE_MS = 600;

  private final Queue<String> served = new ConcurrentLinkedQueue<>();
  private Vertx vertx;
  private int port;

  @BeforeAll
  void start() throws Exception {
    vertx = Vertx.vertx();
    port = gateway(new GatewayDoor(vertx, TOKEN, KEYS.fingerprint()));
  }

  /** A gateway with the cluster's certificate and this door; returns its port. */
  private int gateway(GatewayDoor door) throws Exception {
    return tls(KEYS).connectHandler(socket -> {
      GatewaySession session = new GatewaySession(vertx, socket, "member-1");
      door.admit(session, line -> serve(session, line));
    }).listen().await(10, TimeUnit.SECONDS).actualPort();
  }

  private NetServer tls(ClusterKeys keys) {
    return vertx.createNetServer(new NetServerOptions().setHost("127.0.0.1").setPort(0).setSsl(true)
        .setKeyCertOptions(keys.keyCert()));
  }

  /** What the gateway would do: here, a worker's hello and a ping are answered. */
  private void serve(GatewaySession session, Buffer line) {
    served.add(line.toString());
    GatewayRequest r = GatewayCodec.request(line);
    session.send(r instanceof GatewayRequest.WorkerHello ? new GatewayReply.Joining(r.id(), CLUSTER) : new GatewayReply.Done(r.id()));
  }

  @AfterAll
  void stop() throws Exception {
    vertx.close().await(20, TimeUnit.SECONDS);
  }

  @BeforeEach
  void clear() {
    served.clear();
  }

  @Test
  void theTokensHolderJoins() {
    ClusterInfo info = BlockingGateway.joinAsWorker(new HostPort("127.0.0.1", port), TOKEN);
    assertEquals(SECRET_NAME, info.clusterName());
    assertEquals(1, served.size(), "only the hello reached the gateway: " + served);
  }

  @Test
  void aWrongTokenGetsOneRefusalAndNothingElse() throws Exception {
    AuthenticationException e = assertThrows(AuthenticationException.class,
        () -> BlockingGateway.joinAsWorker(new HostPort("127.0.0.1", port), OTHER));
    assertTrue(e.getMessage().contains("refused the cluster token from another token"), e.getMessage());

    try (TlsPeer peer = new TlsPeer(port)) {
      GatewayReply.Challenge challenge = (GatewayReply.Challenge) reply(peer.readLine());
      ClientHandshake wrong = new ClientHandshake(OTHER, peer.fingerprint());
      peer.send(new String(GatewayCodec.encode(wrong.answer(challenge, 1)), StandardCharsets.UTF_8));
      assertRefused(peer, "wrong proof");
    }
    assertTrue(served.isEmpty(), "nothing was served: " + served);
  }

  @Test
  void requestsBeforeAuthenticationAreRefused() throws Exception {
    for (String early : List.of("{\"type\":\"ClientHello\",\"id\":1}", "{\"type\":\"WorkerHello\",\"id\":2}",
        "{\"type\":\"Create\",\"id\":3,\"cpus\":1,\"timeoutMs\":1000,\"actorClass\":\"x.Y\"}",
        "{\"type\":\"Ping\",\"id\":4}", "not json", "{\"type\":\"Authenticate\",\"id\":5,\"nonce\":\"00\",\"proof\":\"00\"}")) {
      try (TlsPeer peer = new TlsPeer(port)) {
        assertTrue(reply(peer.readLine()) instanceof GatewayReply.Challenge);
        peer.send(early);
        assertRefused(peer, "expected an Authenticate request first");
      }
    }
    assertTrue(served.isEmpty(), "nothing was served: " + served);
  }

  @Test
  void aLongLineBeforeAuthenticationIsRefused() throws Exception {
    for (String big : List.of("x".repeat(5000) + "\n", "y".repeat(9000))) {
      try (TlsPeer peer = new TlsPeer(port)) {
        peer.readLine();
        peer.socket.getOutputStream().write(big.getBytes(StandardCharsets.UTF_8));
        peer.socket.getOutputStream().flush();
        assertRefused(peer, "longer than 4096 bytes before authentication");
      }
    }
  }

  @Test
  void aSilentPeerIsClosedAtTheDeadline() throws Exception {
    try (TlsPeer peer = new TlsPeer(gateway(new GatewayDoor(vertx, TOKEN, KEYS.fingerprint(), DEADLINE_MS)))) {
      long t0 = System.nanoTime();
      peer.readLine();
      assertRefused(peer, "no authentication within " + DEADLINE_MS + " ms");
      long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      assertTrue(ms >= DEADLINE_MS - 50 && ms < 8_000, "closed after " + ms + " ms");
    }
  }

  @Test
  void afterAuthenticationLongLinesAreServed() throws Exception {
    try (TlsPeer peer = new TlsPeer(port)) {
      GatewayReply.Challenge challenge = (GatewayReply.Challenge) reply(peer.readLine());
      ClientHandshake right = new ClientHandshake(TOKEN, peer.fingerprint());
      peer.send(new String(GatewayCodec.encode(right.answer(challenge, 1)), StandardCharsets.UTF_8));
      assertTrue(right.verify((GatewayReply.Authenticated) reply(peer.readLine())));
      peer.send(new JsonObject().put("type", "Ping").put("id", 2).put("padding", "p".repeat(20_000)).encode());
      assertEquals(new GatewayReply.Done(2), reply(peer.readLine()));
      peer.send("{\"type\":\"Authenticate\",\"id\":3,\"nonce\":\"" + "ab".repeat(32) + "\",\"proof\":\"" + "ab".repeat(32) + "\"}");
      assertEquals(new GatewayReply.Done(3), reply(peer.readLine()), "here the gateway's own handlers answer");
    }
  }

  @Test
  void plainTcpGetsNoAnswer() throws Exception {
    try (Socket plain = new Socket("127.0.0.1", port)) {
      plain.setSoTimeout(10_000);
      plain.getOutputStream().write("{\"type\":\"WorkerHello\",\"id\":1}\n".getBytes(StandardCharsets.UTF_8));
      byte[] got = readAll(plain.getInputStream());
      String text = new String(got, StandardCharsets.ISO_8859_1);
      assertFalse(text.contains("type") || text.contains(SECRET_NAME) || text.contains(MEMBER), "a plain peer learns nothing: " + text);
    }
    assertTrue(served.isEmpty(), "nothing was served: " + served);
  }

  @Test
  void aManInTheMiddleWithItsOwnCertificateIsRefused() throws Exception {
    NetClient onward = vertx.createNetClient(new NetClientOptions().setSsl(true).setTrustAll(true)
        .setHostnameVerificationAlgorithm(""));
    NetServer relay = tls(ClusterKeys.derive(OTHER)).connectHandler(in -> {
      in.pause();
      onward.connect(port, "127.0.0.1").onSuccess(out -> {
        pipe(in, out);
        pipe(out, in);
        in.resume();
      }).onFailure(e -> in.close());
    }).listen().await(10, TimeUnit.SECONDS);
    try {
      AuthenticationException e = assertThrows(AuthenticationException.class,
          () -> BlockingGateway.joinAsWorker(new HostPort("127.0.0.1", relay.actualPort()), TOKEN));
      assertTrue(e.getMessage().contains("refused") && e.getMessage().contains("intercepts"), e.getMessage());
      assertTrue(served.isEmpty(), "nothing was served through the relay: " + served);
    } finally {
      relay.close().await(10, TimeUnit.SECONDS);
      onward.close().await(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aMasterThatCannotProveTheTokenIsToldNothing() throws Exception {
    Queue<String> heard = new ConcurrentLinkedQueue<>();
    NetServer impostor = tls(ClusterKeys.derive(OTHER)).connectHandler(s -> {
      JsonLines.write(s, GatewayCodec.encode(new GatewayReply.Challenge("ab".repeat(32))));
      JsonLines.readLines(s, line -> {
        heard.add(line.toString());
        JsonLines.write(s, GatewayCodec.encode(new GatewayReply.Authenticated(0, "cd".repeat(32))));
      }, bad -> {});
    }).listen().await(10, TimeUnit.SECONDS);
    try {
      AuthenticationException e = assertThrows(AuthenticationException.class,
          () -> BlockingGateway.joinAsWorker(new HostPort("127.0.0.1", impostor.actualPort()), TOKEN));
      assertTrue(e.getMessage().contains("did not prove that it holds the cluster token from the test token"), e.getMessage());
      assertEquals(1, heard.size(), "only the answer to the challenge was sent: " + heard);
      assertTrue(heard.peek().contains("\"Authenticate\""), heard.toString());
    } finally {
      impostor.close().await(10, TimeUnit.SECONDS);
    }
  }

  private static void pipe(NetSocket from, NetSocket to) {
    from.handler(to::write);
    from.closeHandler(v -> to.close());
  }

  private static GatewayReply reply(String line) {
    assertTrue(line != null, "the gateway closed the connection");
    return GatewayCodec.reply(Buffer.buffer(line));
  }

  /** One refusal that says why and nothing about the cluster, then the end of the connection. */
  private static void assertRefused(TlsPeer peer, String why) throws Exception {
    GatewayReply r = reply(peer.readLine());
    assertTrue(r instanceof GatewayReply.Failed f && f.kind() == org.parl.internal.wire.ErrorKind.UNAUTHENTICATED
        && f.message().startsWith(GatewayDoor.REFUSAL) && f.message().contains(why), String.valueOf(r));
    assertNull(peer.readLine(), "the connection is closed after the refusal");
    String all = peer.received.toString(StandardCharsets.UTF_8);
    assertFalse(all.contains(SECRET_NAME) || all.contains(MEMBER) || all.contains("10.9.8.7"), "nothing about the cluster: " + all);
  }

  private static byte[] readAll(InputStream in) throws Exception {
    try {
      return in.readAllBytes();
    } catch (java.net.SocketException reset) {
      return new byte[0];
    }
  }
}
