package org.parl.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.parl.internal.security.ClusterToken;

/** Who gets in: the Bearer token, a session cookie, nothing else; and where a login leads. */
class MonitorAuthTest {

  private static final String T = "0123456789abcdef".repeat(4);
  private static final ClusterToken TOKEN = ClusterToken.of(T, "test");
  private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

  private final Sessions sessions = new Sessions();
  private final MonitorAuth auth = new MonitorAuth(TOKEN, new LoginCodes(TOKEN, () -> "https://h:1"), sessions,
      new TokenPage("{{message}}|{{next}}"));

  @Test
  void theTokenMatchesOnlyItself() {
    assertTrue(TOKEN.matches(T));
    assertFalse(TOKEN.matches(null));
    assertFalse(TOKEN.matches(""));
    assertFalse(TOKEN.matches(T.substring(1)));
    assertFalse(TOKEN.matches(T + "0"));
    assertFalse(TOKEN.matches(T.toUpperCase()));
    assertFalse(TOKEN.matches("x".repeat(100_000)));
  }

  @Test
  void bearerGoodWrongMissingMalformed() {
    assertEquals(Verdict.ACCEPTED, auth.check("Bearer " + T, null, NOW));
    assertEquals(Verdict.ACCEPTED, auth.check("bearer  " + T, null, NOW), "the scheme is case-insensitive (RFC 7235)");
    assertEquals(Verdict.WRONG_TOKEN, auth.check("Bearer " + T.replace('0', '1'), null, NOW));
    assertEquals(Verdict.WRONG_TOKEN, auth.check("Bearer " + T.substring(0, 40), null, NOW));
    assertEquals(Verdict.MISSING, auth.check(null, null, NOW));
    for (String header : new String[] {"", "Bearer", "Bearer ", T, "Basic " + T, "Bearer " + T + " extra", "Bearer\t" + T,
        "Token " + T}) {
      assertEquals(Verdict.MALFORMED_HEADER, auth.check(header, null, NOW), "header '" + header + "'");
    }
  }

  @Test
  void cookieGoodUnknownExpired() {
    String id = sessions.open(NOW);
    assertEquals(Verdict.ACCEPTED, auth.check(null, id, NOW));
    assertEquals(Verdict.UNKNOWN_SESSION, auth.check(null, "nope", NOW));
    assertEquals(Verdict.EXPIRED_SESSION, auth.check(null, id, NOW.plus(Sessions.LIFETIME)));
  }

  @Test
  void anAuthorizationHeaderDecidesAlone() {
    String id = sessions.open(NOW);
    assertEquals(Verdict.WRONG_TOKEN, auth.check("Bearer " + "f".repeat(64), id, NOW), "a good cookie does not save a wrong token");
    assertEquals(Verdict.MALFORMED_HEADER, auth.check("Basic abc", id, NOW));
    assertEquals(Verdict.ACCEPTED, auth.check("Bearer " + T, "stale", NOW));
  }

  @Test
  void onlyLocalPathsAreFollowedAfterALogin() {
    assertEquals("/jobs.html?client=c-1&job=job-2", MonitorAuth.safeNext("/jobs.html?client=c-1&job=job-2"));
    assertEquals("/clients.html", MonitorAuth.safeNext("/clients.html"));
    for (String next : new String[] {null, "", "https://evil.example/", "//evil.example/", "/\\evil.example", "/\\/x",
        "evil", "/login?code=1.x", "/a b", "/a\r\nSet-Cookie: x=y", "/" + "a".repeat(3000)}) {
      assertEquals("/", MonitorAuth.safeNext(next), "next " + next);
    }
  }

  @Test
  void theTokenPageEscapesWhatItShows() {
    TokenPage page = new TokenPage("<p>{{message}}</p><input value=\"{{next}}\">");
    assertEquals("<p>a &lt;b&gt; &amp; &#39;c&#39;</p><input value=\"/x?&quot;&gt;\">", page.render("a <b> & 'c'", "/x?\">"));
  }
}
