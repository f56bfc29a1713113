package org.parl.internal.wire.gateway;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.Certificate;
import java.security.cert.CertificateEncodingException;
import java.util.HexFormat;
import org.parl.internal.wire.BadMessageException;

/**
 * What the two sides of the gateway's authentication share (docs/contract.md §9): the sizes, the deadline, the
 * purpose labels of the proofs, and how a certificate's fingerprint is taken. The exchange itself is
 * in {@link ServerHandshake} and {@link ClientHandshake}:
 *
 * <pre>
 * gateway → peer   {"type":"Challenge","nonce":S}
 * peer → gateway   {"type":"Authenticate","id":1,"nonce":C,"proof":HMAC(token, "parl gateway client", S, C, F)}
 * gateway → peer   {"type":"Authenticated","id":1,"proof":HMAC(token, "parl gateway server", S, C, F)}
 * </pre>
 *
 * <p>S and C are fresh 32-byte nonces and F is the SHA-256 of the gateway's TLS certificate, as
 * each side sees it: a man in the middle with a certificate of its own makes the two sides compute
 * different proofs, so both refuse. The token itself never crosses the network.
 */
public final class GatewayAuth {

  /** Bytes of each nonce and proof (hex on the wire, twice as many characters). */
  public static final int BYTES = 32;
  /** Longest line a peer may send before it has authenticated. */
  public static final int MAX_LINE_BEFORE_AUTH = 4096;
  /**
   * How long a peer has, from the end of the TLS handshake, to authenticate: shorter than the
   * gateway's read-idle timeout (10 s), so that a silent peer gets its one refusal before the idle
   * timeout closes it without a word.
   */
  public static final long DEADLINE_MS = 8_000;
  static final String CLIENT_LABEL = "parl gateway client";
  static final String SERVER_LABEL = "parl gateway server";
  private static final HexFormat HEX = HexFormat.of();

  private GatewayAuth() {}

  /** SHA-256 of a certificate's encoded form: what the proofs are bound to. */
  public static byte[] fingerprint(Certificate certificate) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
    } catch (CertificateEncodingException e) {
      throw new IllegalArgumentException("the certificate cannot be encoded: " + e.getMessage(), e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
    }
  }

  /** Checks a nonce or proof field: exactly {@value #BYTES} bytes as lowercase hex. */
  static String hex(String field, String value) {
    if (value == null || value.length() != 2 * BYTES || !value.chars().allMatch(GatewayAuth::isHexDigit)) {
      throw new BadMessageException("field '" + field + "' must be " + BYTES + " bytes as " + 2 * BYTES
          + " lowercase hex digits");
    }
    return value;
  }

  private static boolean isHexDigit(int c) {
    return c >= '0' && c <= '9' || c >= 'a' && c <= 'f';
  }

  static String toHex(byte[] bytes) {
    return HEX.formatHex(bytes);
  }

  static byte[] fromHex(String hex) {
    return HEX.parseHex(hex);
  }
}
