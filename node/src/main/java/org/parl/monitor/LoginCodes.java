package org.parl.monitor;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.parl.security.ClusterToken;

/**
 * One-time login codes for the monitor's login link, {@code /login?code=C} (SPEC §6), like
 * Jupyter's. A code needs no state to make: anyone who holds the token can mint one, as
 * {@code expiryEpochSeconds + "." + base64url(HMAC(token, label, expiry, monitorUrl))}. A monitor
 * accepts a code until it expires, only once (it remembers the codes used until they expire), and
 * only if it was made for this monitor's URL, so that a code used on one monitor cannot be used
 * again on another.
 */
public final class LoginCodes {

  /** How long a minted code stays good. */
  public static final Duration LIFETIME = Duration.ofHours(24);
  /** Codes expiring further ahead than {@link #LIFETIME} plus this were not minted here. */
  private static final Duration CLOCK_SKEW = Duration.ofMinutes(5);
  static final int MAX_REMEMBERED = 10_000;
  private static final int MAX_LENGTH = 128;
  private static final int MAC_BYTES = 32;
  private static final String LABEL = "parl monitor login v1";

  private final ClusterToken token;
  private final Supplier<String> monitorUrl;
  /** Used codes and their expiry (epoch seconds); used on the monitor's context only. */
  private final Map<String, Long> used = new HashMap<>();

  /** @param monitorUrl the URL of the monitor that accepts the codes, {@code https://HOST:PORT} */
  LoginCodes(ClusterToken token, Supplier<String> monitorUrl) {
    this.token = token;
    this.monitorUrl = monitorUrl;
  }

  /** A code for the monitor at {@code monitorUrl}, good until {@code expiry}. */
  public static String mint(ClusterToken token, String monitorUrl, Instant expiry) {
    long seconds = expiry.getEpochSecond();
    return seconds + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(mac(token, seconds, monitorUrl));
  }

  /** A login link to the monitor at {@code monitorUrl}, good for {@link #LIFETIME} from now. */
  public static String link(String monitorUrl, ClusterToken token) {
    return monitorUrl + "/login?code=" + mint(token, monitorUrl, Instant.now().plus(LIFETIME));
  }

  /** Checks {@code code} at {@code now}; a good one is used up. */
  Verdict redeem(String code, Instant now) {
    Parsed parsed = parse(code);
    if (parsed == null) {
      return Verdict.MALFORMED_CODE;
    }
    long expiry = parsed.expiry();
    if (!MessageDigest.isEqual(parsed.mac(), mac(token, expiry, monitorUrl.get()))) {
      return Verdict.FORGED_CODE;
    }
    long nowS = now.getEpochSecond();
    if (expiry <= nowS) {
      return Verdict.EXPIRED_CODE;
    }
    if (expiry > nowS + LIFETIME.plus(CLOCK_SKEW).toSeconds()) {
      return Verdict.MALFORMED_CODE;
    }
    if (used.containsKey(code)) {
      return Verdict.USED_CODE;
    }
    if (used.size() >= MAX_REMEMBERED) {
      used.values().removeIf(e -> e <= nowS); // expired codes are refused anyway: forget them
      if (used.size() >= MAX_REMEMBERED) {
        return Verdict.TOO_MANY_CODES;
      }
    }
    used.put(code, expiry);
    return Verdict.ACCEPTED;
  }

  /** How many used codes are remembered now. */
  int remembered() {
    return used.size();
  }

  private record Parsed(long expiry, byte[] mac) {}

  /**
   * A well-formed code's parts, else null. Well-formed means written exactly as
   * {@link #mint} writes it (no leading zeros, canonical base64url), so that a used code cannot
   * come back under another spelling of the same value.
   */
  private static Parsed parse(String code) {
    if (code == null || code.length() > MAX_LENGTH || !code.matches("[1-9][0-9]{0,11}\\.[A-Za-z0-9_-]+")) {
      return null;
    }
    int dot = code.indexOf('.');
    String text = code.substring(dot + 1);
    byte[] mac;
    try {
      mac = Base64.getUrlDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      return null;
    }
    boolean canonical = mac.length == MAC_BYTES && Base64.getUrlEncoder().withoutPadding().encodeToString(mac).equals(text);
    return canonical ? new Parsed(Long.parseLong(code.substring(0, dot)), mac) : null;
  }

  private static byte[] mac(ClusterToken token, long expiry, String monitorUrl) {
    return token.proof(LABEL, Long.toString(expiry).getBytes(StandardCharsets.US_ASCII),
        monitorUrl.getBytes(StandardCharsets.UTF_8));
  }
}
