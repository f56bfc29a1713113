package org.parl.internal.wire.gateway;

import java.security.MessageDigest;
import java.util.Optional;
import org.parl.internal.security.ClusterToken;

/**
 * The gateway's side of one connection's authentication (see {@link GatewayAuth}): it sends a
 * fresh challenge, checks the peer's proof against the gateway's own certificate, and answers with
 * its own proof. A peer gets one attempt. Plain Java, used on one thread.
 */
public final class ServerHandshake {

  private final ClusterToken token;
  private final byte[] fingerprint;
  private final byte[] nonce = ClusterToken.nonce(GatewayAuth.BYTES);
  private boolean tried;

  /** @param ownFingerprint SHA-256 of the certificate this gateway presents */
  public ServerHandshake(ClusterToken token, byte[] ownFingerprint) {
    this.token = token;
    this.fingerprint = ownFingerprint.clone();
  }

  /** The connection's one challenge, sent first. */
  public GatewayReply.Challenge challenge() {
    return new GatewayReply.Challenge(GatewayAuth.toHex(nonce));
  }

  /**
   * Checks the peer's answer to the challenge.
   *
   * @return the gateway's own proof to send back; empty when the proof is wrong (another token,
   *     another challenge, or a certificate other than this gateway's: someone in the middle), or
   *     when this connection has already tried once
   */
  public Optional<GatewayReply.Authenticated> check(GatewayRequest.Authenticate answer) {
    if (tried) {
      return Optional.empty();
    }
    tried = true;
    byte[] peerNonce = GatewayAuth.fromHex(answer.nonce());
    if (MessageDigest.isEqual(peerNonce, nonce)
        || !token.verify(GatewayAuth.fromHex(answer.proof()), GatewayAuth.CLIENT_LABEL, nonce, peerNonce, fingerprint)) {
      return Optional.empty();
    }
    byte[] proof = token.proof(GatewayAuth.SERVER_LABEL, nonce, peerNonce, fingerprint);
    return Optional.of(new GatewayReply.Authenticated(answer.id(), GatewayAuth.toHex(proof)));
  }
}
