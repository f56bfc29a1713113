package org.parl.internal.wire;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.parl.internal.security.SharedSecret;

/**
 * The keys that seal every frame of a data connection after its handshake ({@link DataAuth}), one
 * per direction, so that a relay on the path can neither inject, alter, replay nor reorder a frame
 * (README, "Security"): the receiver opens each record ({@link SealedInput}) before a byte of it
 * reaches the frame reader, and a record that fails closes the connection.
 *
 * <p>Derived HKDF-style with HMAC-SHA256 from the job's credential: first a key for this
 * connection, {@code PRK = HMAC(secret, "parl data frame keys" | jobNonce | clientNonce |
 * SHA-256(HELLO) | SHA-256(answer))} (each part length-prefixed, {@link SharedSecret#proof}), fresh
 * because both nonces are, and bound to the handshake as both sides saw it: a HELLO or answer
 * changed on the way (the blobs asked for, the shared area offered) gives the two ends different
 * keys, and the first record fails; then one AES-128 key per direction, {@code HMAC(PRK, label | 1)}
 * cut to 16 bytes. A connection with TLS ({@code --encrypt-data}) is not sealed again: TLS already
 * authenticates every record, and the handshake's proofs bind the credential to its certificate.
 */
public final class FrameKeys {

  static final String LABEL = "parl data frame keys";
  private static final int KEY_BYTES = 16;

  private final byte[] clientToJob;
  private final byte[] jobToClient;

  private FrameKeys(byte[] clientToJob, byte[] jobToClient) {
    this.clientToJob = clientToJob;
    this.jobToClient = jobToClient;
  }

  /**
   * The keys of one connection.
   *
   * @param hello the HELLO's payload as sent (client) or received (job)
   * @param answer the payload of the job's RESULT to that HELLO, as sent or received
   */
  public static FrameKeys derive(SharedSecret secret, byte[] jobNonce, byte[] clientNonce, byte[] hello, byte[] answer) {
    byte[] prk = secret.proof(LABEL, jobNonce, clientNonce, sha256(hello), sha256(answer));
    return new FrameKeys(expand(prk, "client to job"), expand(prk, "job to client"));
  }

  /** The client's sending side, over the connection's raw output. */
  public SealedOutput clientOutput(OutputStream out) {
    return new SealedOutput(out, clientToJob);
  }

  /** The client's receiving side, over the connection's raw (buffered) input. */
  public SealedInput clientInput(InputStream in) {
    return new SealedInput(in, jobToClient);
  }

  /** The job's sending side. */
  public SealedOutput jobOutput(OutputStream out) {
    return new SealedOutput(out, jobToClient);
  }

  /** The job's receiving side. */
  public SealedInput jobInput(InputStream in) {
    return new SealedInput(in, clientToJob);
  }

  private static byte[] expand(byte[] prk, String label) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(prk, "HmacSHA256"));
      mac.update(label.getBytes(StandardCharsets.UTF_8));
      mac.update((byte) 1);
      byte[] t = mac.doFinal();
      byte[] key = new byte[KEY_BYTES];
      System.arraycopy(t, 0, key, 0, KEY_BYTES);
      return key;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this Java runtime", e);
    }
  }

  private static byte[] sha256(byte[] b) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(b);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
    }
  }
}
