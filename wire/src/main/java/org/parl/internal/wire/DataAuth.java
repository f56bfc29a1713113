package org.parl.internal.wire;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.Certificate;
import java.util.HexFormat;
import org.parl.internal.security.SharedSecret;

/**
 * The challenge-response that opens every data connection (docs/contract.md §9): the job's secret never
 * travels on it, and a recorded exchange cannot be replayed, because each side proves that it
 * holds the secret over the other side's fresh nonce. The job's nonce is made with its secret,
 * fresh for each actor it serves, and handed to the client with the placement (beside the secret,
 * over the gateway's TLS), so that the client speaks first and its HELLO goes with the connect: a
 * HELLO recorded for one actor is refused by the next, and the job serves one client per nonce.
 *
 * <pre>
 *   client -&gt; job     HELLO      {@link DataMessage.Hello}: protocol, nonce (hex clientNonce), proof (hex), clientId,
 *                                blobs, an offered shared area or none
 *                                proof = HMAC(secret, "parl data hello" | jobNonce | clientNonce | fingerprint)
 *   job    -&gt; client  RESULT     {@link DataMessage.Welcome}: jobId, pid, missing, proof (hex), whether it mapped the area
 *                                proof = HMAC(secret, "parl data welcome" | jobNonce | clientNonce | fingerprint)
 *             or       ERROR      {@link DataMessage.Failure} "authentication failed: ...", and the job closes the connection
 * </pre>
 *
 * {@code fingerprint} is the SHA-256 of the job's TLS certificate as the client was shown it (with
 * {@code --encrypt-data}), empty otherwise: a certificate put in between by someone else changes
 * it, so neither side's proof verifies and the client needs no certificate authority.
 */
public final class DataAuth {

  /** How every refusal of a job's data port begins; what follows never says anything about the secret. */
  public static final String REFUSED = "authentication failed: ";
  /**
   * The job's ERROR instead of an answer when too many connections are authenticating at once
   * (docs/contract.md §8): the client may try again a moment later.
   */
  public static final String BUSY = "too many connections are waiting to authenticate with this job; try again";
  /** How long a new connection has to complete the exchange (and the TLS handshake before it). */
  public static final long DEADLINE_MS = 10_000;
  /** The fingerprint of a connection without TLS. */
  public static final byte[] NO_FINGERPRINT = new byte[0];
  private static final String HELLO = "parl data hello";
  private static final String WELCOME = "parl data welcome";

  private DataAuth() {}

  /** The client's proof, sent in its HELLO. */
  public static byte[] helloProof(SharedSecret secret, byte[] jobNonce, byte[] clientNonce, byte[] fingerprint) {
    return secret.proof(HELLO, jobNonce, clientNonce, fingerprint);
  }

  /** The job's proof, sent in its answer to a HELLO whose proof it verified. */
  public static byte[] welcomeProof(SharedSecret secret, byte[] jobNonce, byte[] clientNonce, byte[] fingerprint) {
    return secret.proof(WELCOME, jobNonce, clientNonce, fingerprint);
  }

  /** Checks a {@link #helloProof} in constant time. */
  public static boolean verifyHello(SharedSecret secret, byte[] claimed, byte[] jobNonce, byte[] clientNonce,
      byte[] fingerprint) {
    return secret.verify(claimed, HELLO, jobNonce, clientNonce, fingerprint);
  }

  /** Checks a {@link #welcomeProof} in constant time. */
  public static boolean verifyWelcome(SharedSecret secret, byte[] claimed, byte[] jobNonce, byte[] clientNonce,
      byte[] fingerprint) {
    return secret.verify(claimed, WELCOME, jobNonce, clientNonce, fingerprint);
  }

  /** SHA-256 of a certificate's encoding. */
  public static byte[] fingerprint(Certificate certificate) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot fingerprint a certificate: " + e.getMessage(), e);
    }
  }

  /** A nonce or proof written in hex: exactly 32 bytes, or null for anything else. */
  public static byte[] bytes32(Object hex) {
    if (!(hex instanceof String s) || s.length() != 2 * SharedSecret.BYTES) {
      return null;
    }
    try {
      return HexFormat.of().parseHex(s);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
