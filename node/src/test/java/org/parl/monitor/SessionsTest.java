package org.parl.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Browser sessions: random ids, an expiry, and a cap with the oldest forgotten first. */
class SessionsTest {

  private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

  private final Sessions sessions = new Sessions();

  @Test
  void aSessionIsGoodUntilItExpires() {
    String id = sessions.open(NOW);
    assertTrue(id.matches("[A-Za-z0-9_-]{43}"), "256 random bits, base64url: " + id);
    assertNotEquals(id, sessions.open(NOW));
    assertEquals(Verdict.ACCEPTED, sessions.check(id, NOW));
    assertEquals(Verdict.ACCEPTED, sessions.check(id, NOW.plus(Sessions.LIFETIME).minusSeconds(1)));
    assertEquals(Verdict.EXPIRED_SESSION, sessions.check(id, NOW.plus(Sessions.LIFETIME)));
  }

  @Test
  void unknownIdsAreRefused() {
    String id = sessions.open(NOW);
    assertEquals(Verdict.UNKNOWN_SESSION, sessions.check(null, NOW));
    assertEquals(Verdict.UNKNOWN_SESSION, sessions.check("", NOW));
    assertEquals(Verdict.UNKNOWN_SESSION, sessions.check(id.substring(1), NOW));
    assertEquals(Verdict.UNKNOWN_SESSION, sessions.check(id + "x".repeat(100), NOW));
    assertEquals(Verdict.UNKNOWN_SESSION, new Sessions().check(id, NOW), "sessions live in one monitor's memory");
  }

  @Test
  void expiredSessionsAreForgottenWhenOthersOpen() {
    sessions.open(NOW);
    sessions.open(NOW.plusSeconds(10));
    assertEquals(2, sessions.size());
    String late = sessions.open(NOW.plus(Sessions.LIFETIME).plusSeconds(5));
    assertEquals(2, sessions.size(), "the first expired and is gone");
    assertEquals(Verdict.ACCEPTED, sessions.check(late, NOW.plus(Sessions.LIFETIME).plusSeconds(5)));
  }

  @Test
  void theNumberOfSessionsIsCappedOldestFirst() {
    String first = sessions.open(NOW);
    String second = sessions.open(NOW);
    for (int i = 2; i < Sessions.MAX; i++) {
      sessions.open(NOW.plusSeconds(1));
    }
    assertEquals(Sessions.MAX, sessions.size());
    assertEquals(Verdict.ACCEPTED, sessions.check(first, NOW.plusSeconds(2)));
    String newest = sessions.open(NOW.plusSeconds(2));
    assertEquals(Sessions.MAX, sessions.size());
    assertEquals(Verdict.UNKNOWN_SESSION, sessions.check(first, NOW.plusSeconds(2)), "the oldest made room");
    assertEquals(Verdict.ACCEPTED, sessions.check(second, NOW.plusSeconds(2)));
    assertEquals(Verdict.ACCEPTED, sessions.check(newest, NOW.plusSeconds(2)));
  }
}
