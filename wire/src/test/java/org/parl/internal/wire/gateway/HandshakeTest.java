package org.parl.internal.wire.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.buffer.Buffer;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.parl.AuthenticationException;
import org.parl.internal.security.ClusterToken;

/** The gateway's mutual challenge-response, both ways, and the attacks it must defeat. */
class HandshakeTest {

  private static final ClusterToken TOKEN = ClusterToken.of("a1".repeat(32), "test token");
  private static final ClusterToken OTHER = ClusterToken.of("b2".repeat(32), "other token");
  private static final byte[] CERT = fingerprint(1);
  private static final byte[] MITM_CERT = fingerprint(2);

  private static byte[] fingerprint(int seed) {
    byte[] f = new byte[GatewayAuth.BYTES];
    f[0] = (byte) seed;
    return f;
  }

  /** Each message as it crosses the wire: encoded and decoded with every check. */
  private static GatewayRequest.Authenticate wire(GatewayRequest.Authenticate a) {
    return (GatewayRequest.Authenticate) GatewayCodec.request(Buffer.buffer(GatewayCodec.encode(a)));
  }

  private static <R extends GatewayReply> R wire(R r, Class<R> type) {
    return type.cast(GatewayCodec.reply(Buffer.buffer(GatewayCodec.encode(r))));
  }

  @Test
  void theRightTokenIsProvenBothWays() {
    ServerHandshake server = new ServerHandshake(TOKEN, CERT);
    ClientHandshake client = new ClientHandshake(TOKEN, CERT);
    GatewayRequest.Authenticate answer = wire(client.answer(wire(server.challenge(), GatewayReply.Challenge.class), 7));
    Optional<GatewayReply.Authenticated> proven = server.check(answer);
    assertTrue(proven.isPresent(), "the gateway accepts the token's holder");
    assertEquals(7, proven.get().id(), "the answer repeats the request's id");
    assertTrue(client.verify(wire(proven.get(), GatewayReply.Authenticated.class)), "the client accepts the gateway's proof");
    assertFalse(answer.proof().contains(TOKEN.toString()), "the token itself is not sent");
  }

  @Test
  void aWrongTokenIsRefusedEitherWay() {
    ServerHandshake server = new ServerHandshake(TOKEN, CERT);
    ClientHandshake stranger = new ClientHandshake(OTHER, CERT);
    assertTrue(server.check(stranger.answer(server.challenge(), 1)).isEmpty(), "a peer with another token is refused");

    ServerHandshake impostor = new ServerHandshake(OTHER, CERT);
    ClientHandshake client = new ClientHandshake(TOKEN, CERT);
    GatewayRequest.Authenticate answer = client.answer(impostor.challenge(), 1);
    assertTrue(impostor.check(answer).isEmpty(), "the impostor cannot check the client's proof");
    GatewayReply.Authenticated bluff = new GatewayReply.Authenticated(1, "00".repeat(GatewayAuth.BYTES));
    assertFalse(client.verify(bluff), "a gateway without the token cannot prove it");
    ServerHandshake otherCluster = new ServerHandshake(OTHER, CERT);
    ClientHandshake otherClient = new ClientHandshake(OTHER, CERT);
    GatewayReply.Authenticated otherProof = otherCluster.check(otherClient.answer(otherCluster.challenge(), 1)).orElseThrow();
    assertFalse(new ClientHandshake(TOKEN, CERT).verify(otherProof), "a proof made with another token fails");
  }

  @Test
  void replayedMessagesAreRefused() {
    ServerHandshake first = new ServerHandshake(TOKEN, CERT);
    ClientHandshake client = new ClientHandshake(TOKEN, CERT);
    GatewayRequest.Authenticate recorded = client.answer(first.challenge(), 1);
    GatewayReply.Authenticated recordedProof = first.check(recorded).orElseThrow();

    ServerHandshake second = new ServerHandshake(TOKEN, CERT);
    assertNotEquals(first.challenge(), second.challenge(), "every connection gets a fresh challenge");
    assertTrue(second.check(recorded).isEmpty(), "a recorded answer does not open another connection");

    ClientHandshake later = new ClientHandshake(TOKEN, CERT);
    later.answer(second.challenge(), 1);
    assertFalse(later.verify(recordedProof), "a recorded gateway proof does not fool another client");

    ServerHandshake once = new ServerHandshake(TOKEN, CERT);
    ClientHandshake guesser = new ClientHandshake(OTHER, CERT);
    assertTrue(once.check(guesser.answer(once.challenge(), 1)).isEmpty());
    ClientHandshake right = new ClientHandshake(TOKEN, CERT);
    assertTrue(once.check(right.answer(once.challenge(), 2)).isEmpty(), "one attempt per connection");
    assertThrows(IllegalStateException.class, () -> right.answer(once.challenge(), 3), "one answer per connection");
  }

  @Test
  void theGatewaysOwnProofCannotBeReflected() {
    ServerHandshake server = new ServerHandshake(TOKEN, CERT);
    GatewayReply.Challenge challenge = server.challenge();
    GatewayRequest.Authenticate echo = new GatewayRequest.Authenticate(1, challenge.nonce(), "00".repeat(GatewayAuth.BYTES));
    assertTrue(server.check(echo).isEmpty(), "the gateway's own nonce sent back is refused");
  }

  @Test
  void aManInTheMiddleWithItsOwnCertificateFailsBothWays() {
    // the client sees the relay's certificate; the gateway behind the relay knows its own
    ServerHandshake gateway = new ServerHandshake(TOKEN, CERT);
    ClientHandshake client = new ClientHandshake(TOKEN, MITM_CERT);
    GatewayRequest.Authenticate relayed = client.answer(gateway.challenge(), 1);
    assertTrue(gateway.check(relayed).isEmpty(), "the gateway refuses a proof bound to another certificate");

    // and a gateway proof relayed the other way does not satisfy a client that saw another certificate
    ServerHandshake honest = new ServerHandshake(TOKEN, CERT);
    ClientHandshake direct = new ClientHandshake(TOKEN, CERT);
    ClientHandshake fooled = new ClientHandshake(TOKEN, MITM_CERT);
    GatewayReply.Challenge c = honest.challenge();
    GatewayReply.Authenticated proof = honest.check(direct.answer(c, 1)).orElseThrow();
    fooled.answer(c, 1);
    assertFalse(fooled.verify(proof), "a proof for one certificate fails for a client that saw another");
  }

  @Test
  void aProofNeedsAnAnswerFirst() {
    assertFalse(new ClientHandshake(TOKEN, CERT).verify(new GatewayReply.Authenticated(1, "00".repeat(GatewayAuth.BYTES))));
  }

  @Test
  void refusalsSayWhereTheTokenCameFrom() {
    AuthenticationException refused = ClientHandshake.refused("10.0.0.1:8010", TOKEN);
    assertTrue(refused.getMessage().contains("10.0.0.1:8010") && refused.getMessage().contains("test token")
        && refused.getMessage().contains("PARL_TOKEN"), refused.getMessage());
    AuthenticationException unproven = ClientHandshake.unproven("10.0.0.1:8010", TOKEN);
    assertTrue(unproven.getMessage().contains("did not prove") && unproven.getMessage().contains("test token"),
        unproven.getMessage());
  }
}
