package org.parl.internal.security;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A secret two processes share for one purpose: a job process and its client (the data path), or
 * a job process and its worker (the control link). Each side proves that it holds it with an
 * HMAC-SHA256 over a purpose label and fresh nonces (length-prefixed parts, the construction of
 * {@link ClusterToken#proof}), so the secret itself never crosses the connection it protects.
 */
public final class SharedSecret {

  /** Bytes of a secret made by {@link #random()}, and of the nonces its proofs are made over. */
  public static final int BYTES = 32;

  private final byte[] key;

  private SharedSecret(byte[] key) {
    this.key = key;
  }

  /** A fresh secret of 256 random bits. */
  public static SharedSecret random() {
    return new SharedSecret(ClusterToken.nonce(BYTES));
  }

  /**
   * The secret written as {@link #hex()} writes it.
   *
   * @throws IllegalArgumentException when it is not 32 to 128 bytes of hex digits (the message
   *     does not repeat the value)
   */
  public static SharedSecret ofHex(String hex) {
    if (hex == null || hex.length() < 2 * 32 || hex.length() > 2 * 128 || hex.length() % 2 != 0) {
      throw new IllegalArgumentException("a shared secret is 32 to 128 bytes written in hex");
    }
    try {
      return new SharedSecret(HexFormat.of().parseHex(hex));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("a shared secret is 32 to 128 bytes written in hex");
    }
  }

  /** The secret in hex, to hand it to the other side over a channel that is already protected. */
  public String hex() {
    return HexFormat.of().formatHex(key);
  }

  /** Proof of holding the secret: HMAC-SHA256 over {@code label} and the parts, each length-prefixed. */
  public byte[] proof(String label, byte[]... parts) {
    byte[] l = label.getBytes(StandardCharsets.UTF_8);
    int n = 4 + l.length;
    for (byte[] p : parts) {
      n += 4 + p.length;
    }
    ByteBuffer b = ByteBuffer.allocate(n).putInt(l.length).put(l);
    for (byte[] p : parts) {
      b.putInt(p.length).put(p);
    }
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(b.array());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this Java runtime", e);
    }
  }

  /** Checks a peer's {@link #proof} in constant time. */
  public boolean verify(byte[] claimed, String label, byte[]... parts) {
    return claimed != null && MessageDigest.isEqual(claimed, proof(label, parts));
  }

  @Override
  public String toString() {
    return "a shared secret";
  }
}
