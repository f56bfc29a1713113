package org.parl.monitor;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.parl.internal.security.ClusterToken;

/**
 * The monitor's browser sessions, in memory: an id of 256 random bits per login, good for
 * {@link #LIFETIME}; at most {@link #MAX} at once, the oldest forgotten first. Ids are kept only
 * as their SHA-256, so looking one up reveals nothing through timing. Used on the monitor's
 * context only.
 */
final class Sessions {

  static final Duration LIFETIME = Duration.ofHours(12);
  static final int MAX = 1_000;

  /** Hash of the id to its expiry, oldest first (every session lives equally long). */
  private final Map<String, Instant> expiries = new LinkedHashMap<>();

  /** Opens a session at {@code now}; returns its id, for the cookie. */
  String open(Instant now) {
    forgetExpired(now);
    if (expiries.size() >= MAX) {
      Iterator<String> oldest = expiries.keySet().iterator();
      oldest.next();
      oldest.remove();
    }
    String id = Base64.getUrlEncoder().withoutPadding().encodeToString(ClusterToken.nonce(32));
    expiries.put(hash(id), now.plus(LIFETIME));
    return id;
  }

  /** Whether {@code id} names a live session at {@code now}. */
  Verdict check(String id, Instant now) {
    Instant expiry = id == null || id.length() > 64 ? null : expiries.get(hash(id));
    if (expiry == null) {
      return Verdict.UNKNOWN_SESSION;
    }
    return now.isBefore(expiry) ? Verdict.ACCEPTED : Verdict.EXPIRED_SESSION;
  }

  int size() {
    return expiries.size();
  }

  private void forgetExpired(Instant now) {
    Iterator<Instant> it = expiries.values().iterator();
    while (it.hasNext() && !now.isBefore(it.next())) {
      it.remove();
    }
  }

  private static String hash(String id) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
      return Base64.getEncoder().encodeToString(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
    }
  }
}
