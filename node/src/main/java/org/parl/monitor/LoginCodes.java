package org.parl.monitor;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.parl.internal.security.ClusterToken;

/**
 * One-time login codes for the monitor's login link, {@code /login?code=C}, like Jupyter's. Each
 * start of a monitor picks a fresh random start id; a code is
 * {@code expiryEpochSeconds + "." + startId + "." + base64url(HMAC(token, label, expiry, monitorUrl, startId))}.
 * A monitor accepts a code until it expires, only once (it remembers the codes used until they
 * expire), only if it was made for this monitor's URL (a code used on one monitor cannot be used
 * again on another) and only for its current start: after a restart, links printed before (used
 * or not, found in a log or a browser's history) are refused, so the used codes that a restart
 * forgot cannot be replayed.
 */
public final class LoginCodes {

  /** How long a minted code stays good. */
  public static final Duration LIFETIME = Duration.ofHours(24);
  /** Codes expiring further ahead than {@link #LIFETIME} plus this were not minted here. */
  private static final Duration CLOCK_SKEW = Duration.ofMinutes(5);
  static final int MAX_REMEMBERED = 10_000;
  private static final int MAX_LENGTH = 128;
  private static final int MAC_BYTES = 32;
  /** A start id: 12 random bytes, 16 base64url characters. */
  private static final int START_BYTES = 12;
  private static final String LABEL = "parl monitor login v2";

  private final ClusterToken token;
  private final Supplier<String> monitorUrl;
  private final String start;
  /** Used codes and their expiry (epoch seconds); used on the monitor's context only. */
  private final Map<String, Long> used = new HashMap<>();

  /** @param monitorUrl the URL of the monitor that accepts the codes, {@code https://HOST:PORT} */
  public LoginCodes(ClusterToken token, Supplier<String> monitorUrl) {
    this(token, monitorUrl, Base64.getUrlEncoder().withoutPadding().encodeToString(ClusterToken.nonce(START_BYTES)));
  }

  /** With a given start id (tests: two starts of one monitor). */
  LoginCodes(ClusterToken token, Supplier<String> monitorUrl, String start) {
    this.token = token;
    this.monitorUrl = monitorUrl;
    this.start = start;
  }

  /** A code for this start of this monitor, good until {@code expiry}. */
  String mint(Instant expiry) {
    long seconds = expiry.getEpochSecond();
    return seconds + "." + start + "." + Base64.getUrlEncoder().withoutPadding()
        .encodeToString(mac(token, seconds, monitorUrl.get(), start));
  }

  /** A login link to this start of this monitor, good for {@link #LIFETIME} from now. */
  public String link() {
    return monitorUrl.get() + "/login?code=" + mint(Instant.now().plus(LIFETIME));
  }

  /** Checks {@code code} at {@code now}; a good one is used up. */
  Verdict redeem(String code, Instant now) {
    Parsed parsed = parse(code);
    if (parsed == null) {
      return Verdict.MALFORMED_CODE;
    }
    long expiry = parsed.expiry();
    if (!MessageDigest.isEqual(parsed.mac(), mac(token, expiry, monitorUrl.get(), parsed.start()))) {
      return Verdict.FORGED_CODE;
    }
    if (!parsed.start().equals(start)) {
      return Verdict.STALE_CODE;
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

  private record Parsed(long expiry, String start, byte[] mac) {}

  /**
   * A well-formed code's parts, else null. Well-formed means written exactly as
   * {@link #mint} writes it (no leading zeros, canonical base64url), so that a used code cannot
   * come back under another spelling of the same value.
   */
  private static Parsed parse(String code) {
    if (code == null || code.length() > MAX_LENGTH
        || !code.matches("[1-9][0-9]{0,11}\\.[A-Za-z0-9_-]{16}\\.[A-Za-z0-9_-]+")) {
      return null;
    }
    int dot = code.indexOf('.');
    int dot2 = code.indexOf('.', dot + 1);
    String startId = code.substring(dot + 1, dot2);
    String text = code.substring(dot2 + 1);
    byte[] mac;
    try {
      mac = Base64.getUrlDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      return null;
    }
    boolean canonical = mac.length == MAC_BYTES && Base64.getUrlEncoder().withoutPadding().encodeToString(mac).equals(text)
        && canonicalStart(startId);
    return canonical ? new Parsed(Long.parseLong(code.substring(0, dot)), startId, mac) : null;
  }

  private static boolean canonicalStart(String startId) {
    byte[] b = Base64.getUrlDecoder().decode(startId);
    return b.length == START_BYTES && Base64.getUrlEncoder().withoutPadding().encodeToString(b).equals(startId);
  }

  private static byte[] mac(ClusterToken token, long expiry, String monitorUrl, String start) {
    return token.proof(LABEL, Long.toString(expiry).getBytes(StandardCharsets.US_ASCII),
        monitorUrl.getBytes(StandardCharsets.UTF_8), start.getBytes(StandardCharsets.US_ASCII));
  }
}
