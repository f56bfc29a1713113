package org.parl.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.parl.internal.security.ClusterToken;

/** One-time login codes: good once, on one start of one monitor; refused when expired, reused, stale, forged or malformed. */
class LoginCodesTest {

  private static final ClusterToken TOKEN = ClusterToken.of("a".repeat(64), "test");
  private static final ClusterToken OTHER = ClusterToken.of("b".repeat(64), "test");
  private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
  private static final String URL = "https://127.0.0.1:8110";
  private static final String START = "AAAAAAAAAAAAAAAA";

  private final LoginCodes codes = new LoginCodes(TOKEN, () -> URL, START);

  private String fresh() {
    return codes.mint(NOW.plus(LoginCodes.LIFETIME));
  }

  @Test
  void aGoodCodeWorksOnce() {
    String code = fresh();
    assertEquals(Verdict.ACCEPTED, codes.redeem(code, NOW));
    assertEquals(Verdict.USED_CODE, codes.redeem(code, NOW.plusSeconds(1)));
    assertEquals(Verdict.ACCEPTED, codes.redeem(codes.mint(NOW.plusSeconds(60)), NOW), "another code is fine");
  }

  @Test
  void afterARestartNoEarlierLinkWorksUsedOrNot() {
    String used = fresh();
    String unused = codes.mint(NOW.plusSeconds(60));
    assertEquals(Verdict.ACCEPTED, codes.redeem(used, NOW));
    LoginCodes restarted = new LoginCodes(TOKEN, () -> URL); // same token, same URL, a new start
    assertEquals(Verdict.STALE_CODE, restarted.redeem(used, NOW.plusSeconds(1)), "a used code is not replayed");
    assertEquals(Verdict.STALE_CODE, restarted.redeem(unused, NOW.plusSeconds(1)));
    assertEquals("this login link was made before the monitor last restarted: use the link it printed when it started, "
        + "or enter the token", Verdict.STALE_CODE.reason());
    String link = restarted.link();
    assertEquals(Verdict.ACCEPTED, restarted.redeem(link.substring(link.indexOf("code=") + 5), Instant.now()),
        "the new start's own link works");
    assertEquals(Verdict.STALE_CODE, codes.redeem(link.substring(link.indexOf("code=") + 5), Instant.now()));
  }

  @Test
  void expiredCodesAreRefused() {
    String code = fresh();
    assertEquals(Verdict.EXPIRED_CODE, codes.redeem(code, NOW.plus(LoginCodes.LIFETIME)));
    assertEquals(Verdict.EXPIRED_CODE, codes.redeem(codes.mint(NOW.minusSeconds(1)), NOW));
  }

  @Test
  void codesMadeWithAnotherTokenOrForAnotherMonitorAreForged() {
    assertEquals(Verdict.FORGED_CODE, codes.redeem(new LoginCodes(OTHER, () -> URL, START).mint(NOW.plusSeconds(60)), NOW));
    LoginCodes another = new LoginCodes(TOKEN, () -> "https://127.0.0.1:8111", START);
    String forAnother = another.mint(NOW.plusSeconds(60));
    assertEquals(Verdict.FORGED_CODE, codes.redeem(forAnother, NOW), "a code is good on the monitor it was made for only");
    assertEquals(Verdict.ACCEPTED, another.redeem(forAnother, NOW));
    String good = fresh();
    String otherExpiry = (Long.parseLong(good.substring(0, good.indexOf('.'))) + 1) + good.substring(good.indexOf('.'));
    assertEquals(Verdict.FORGED_CODE, codes.redeem(otherExpiry, NOW), "the expiry is signed");
    String otherStart = good.replace("." + START + ".", ".BBBBBBBBBBBBBBBB.");
    assertEquals(Verdict.FORGED_CODE, codes.redeem(otherStart, NOW), "the start id is signed");
    assertEquals(0, codes.remembered());
  }

  @Test
  void malformedCodesAreRefused() {
    String good = fresh();
    String expiry = good.substring(0, good.indexOf('.'));
    String mac = good.substring(good.lastIndexOf('.') + 1);
    String es = expiry + "." + START;
    char last = mac.charAt(mac.length() - 1);
    String otherSpelling = mac.substring(0, mac.length() - 1) + (char) (last ^ 1); // same bytes, non-canonical bits
    String[] bad = {null, "", "abc", expiry, es, es + ".", "." + START + "." + mac, "0" + good, "-1." + START + "." + mac,
        es + "." + mac + "=", es + "." + mac + "AAAA", es + "." + mac.substring(4), es + ".!!!", es + "." + otherSpelling,
        "1234567890123." + START + "." + mac, good + "x".repeat(200), expiry + " ." + START + "." + mac,
        expiry + "." + mac, expiry + ".AAAA." + mac};
    for (String code : bad) {
      assertEquals(Verdict.MALFORMED_CODE, codes.redeem(code, NOW), "code " + code);
    }
    assertEquals(Verdict.MALFORMED_CODE, codes.redeem(codes.mint(NOW.plus(Duration.ofDays(30))), NOW),
        "a code good for longer than a day was not minted by parl");
    assertEquals(Verdict.ACCEPTED, codes.redeem(good, NOW), "none of these used the good code up");
  }

  @Test
  void theMemoryOfUsedCodesIsBounded() {
    for (int i = 0; i < LoginCodes.MAX_REMEMBERED; i++) {
      assertEquals(Verdict.ACCEPTED, codes.redeem(codes.mint(NOW.plusSeconds(100 + i)), NOW));
    }
    assertEquals(Verdict.TOO_MANY_CODES, codes.redeem(fresh(), NOW));
    assertEquals(Verdict.ACCEPTED, codes.redeem(fresh(), NOW.plusSeconds(200)), "room again once some expired");
    assertEquals(LoginCodes.MAX_REMEMBERED - 100, codes.remembered(), "the 101 expired ones were forgotten, the new one kept");
  }

  @Test
  void aLinkCarriesAFreshCode() {
    String link = codes.link();
    assertTrue(link.startsWith("https://127.0.0.1:8110/login?code="), link);
    String code = link.substring(link.indexOf("code=") + 5);
    assertTrue(code.matches("[0-9]+\\." + START + "\\.[A-Za-z0-9_-]{43}"), code);
    assertEquals(Verdict.ACCEPTED, codes.redeem(code, Instant.now()));
    assertTrue(Base64.getUrlDecoder().decode(code.substring(code.lastIndexOf('.') + 1)).length == 32);
  }
}
