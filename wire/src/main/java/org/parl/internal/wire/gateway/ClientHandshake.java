package org.parl.internal.wire.gateway;

import org.parl.AuthenticationException;
import org.parl.internal.security.ClusterToken;

/**
 * A peer's side of the gateway's authentication (see {@link GatewayAuth}): it answers the challenge
 * with its own nonce and a proof bound to the certificate it was shown, then checks the gateway's
 * proof before it sends anything else. Plain Java, used on one thread.
 */
public final class ClientHandshake {

  private final ClusterToken token;
  private final byte[] fingerprint;
  private final byte[] nonce = ClusterToken.nonce(GatewayAuth.BYTES);
  private byte[] serverNonce;

  /** @param seenFingerprint SHA-256 of the certificate the gateway presented on this connection */
  public ClientHandshake(ClusterToken token, byte[] seenFingerprint) {
    this.token = token;
    this.fingerprint = seenFingerprint.clone();
  }

  /**
   * The answer to the gateway's challenge.
   *
   * @throws IllegalStateException when called a second time: one connection answers one challenge
   */
  public GatewayRequest.Authenticate answer(GatewayReply.Challenge challenge, long id) {
    if (serverNonce != null) {
      throw new IllegalStateException("this connection already answered a challenge");
    }
    serverNonce = GatewayAuth.fromHex(challenge.nonce());
    byte[] proof = token.proof(GatewayAuth.CLIENT_LABEL, serverNonce, nonce, fingerprint);
    return new GatewayRequest.Authenticate(id, GatewayAuth.toHex(nonce), GatewayAuth.toHex(proof));
  }

  /** Whether the gateway proved that it holds the same token, for this connection's nonces and certificate. */
  public boolean verify(GatewayReply.Authenticated answer) {
    return serverNonce != null
        && token.verify(GatewayAuth.fromHex(answer.proof()), GatewayAuth.SERVER_LABEL, serverNonce, nonce, fingerprint);
  }

  /** What a peer reports when the gateway at {@code master} refused its token. */
  public static AuthenticationException refused(String master, ClusterToken token) {
    return new AuthenticationException("the master at " + master + " refused the cluster token from " + token.source()
        + ": it is not this cluster's token (or something between here and the master intercepts the connection). "
        + "Use the token file of the cluster's master (its $PARL_HOME/token): "
        + "copy it to this host (mode 600), or name it with --token-file (ConnectOptions.setTokenFile), or set "
        + ClusterToken.TOKEN_ENV);
  }

  /** What a peer reports when the gateway at {@code master} answered without proving the token. */
  public static AuthenticationException unproven(String master, ClusterToken token) {
    return new AuthenticationException("the master at " + master + " did not prove that it holds the cluster token from "
        + token.source() + ": it belongs to another cluster, or something between here and there poses as it; "
        + "nothing was sent to it");
  }
}
