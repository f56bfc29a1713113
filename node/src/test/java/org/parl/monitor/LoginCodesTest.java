package org.parl.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.parl.security.ClusterToken;

/** One-time login codes: good once, refused when expired, reused, forged or malformed. */
class LoginCodesTest {

  private static final ClusterToken TOKEN = ClusterToken.of("a".repeat(64), "test");
  private static final ClusterToken OTHER = ClusterToken.of("b".repeat(64), "test");
  private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
  private static final String URL = "https://127.0.0.1:8110";

  private final LoginCodes codes = new LoginCodes(TOKEN, () -> URL);

  private static String fresh() {
    return mint(TOKEN, NOW.plus(LoginCodes.LIFETIME));
  }

  private static String mint(ClusterToken token, Instant expiry) {
    return LoginCodes.mint(token, URL, expiry);
  }

  @Test
  void aGoodCodeWorksOnce() {
    String code = fresh();
    assertEquals(Verdict.ACCEPTED, codes.redeem(code, NOW));
    assertEquals(Verdict.USED_CODE, codes.redeem(code, NOW.plusSeconds(1)));
    assertEquals(Verdict.ACCEPTED, codes.redeem(mint(TOKEN, NOW.plusSeconds(60)), NOW), "another code is fine");
  }

  @Test
  void expiredCodesAreRefused() {
    String code = fresh();
    assertEquals(Verdict.EXPIRED_CODE, codes.redeem(code, NOW.plus(LoginCodes.LIFETIME)));
    assertEquals(Verdict.EXPIRED_CODE, codes.redeem(mint(TOKEN, NOW.minusSeconds(1)), NOW));
  }

  @Test
  void codesMadeWithAnotherTokenOrForAnotherMonitorAreForged() {
    assertEquals(Verdict.FORGED_CODE, codes.redeem(mint(OTHER, NOW.plusSeconds(60)), NOW));
    String forAnother = LoginCodes.mint(TOKEN, "https://127.0.0.1:8111", NOW.plusSeconds(60));
    assertEquals(Verdict.FORGED_CODE, codes.redeem(forAnother, NOW), "a code is good on the monitor it was made for only");
    assertEquals(Verdict.ACCEPTED, new LoginCodes(TOKEN, () -> "https://127.0.0.1:8111").redeem(forAnother, NOW));
    String good = fresh();
    String otherExpiry = (Long.parseLong(good.substring(0, good.indexOf('.'))) + 1) + good.substring(good.indexOf('.'));
    assertEquals(Verdict.FORGED_CODE, codes.redeem(otherExpiry, NOW), "the expiry is signed");
    assertEquals(0, codes.remembered());
  }

  @Test
  void malformedCodesAreRefused() {
    String good = fresh();
    String expiry = good.substring(0, good.indexOf('.'));
    String mac = good.substring(good.indexOf('.') + 1);
    char last = mac.charAt(mac.length() - 1);
    String otherSpelling = mac.substring(0, mac.length() - 1) + (char) (last ^ 1); // same bytes, non-canonical bits
    String[] bad = {null, "", "abc", expiry, expiry + ".", "." + mac, "0" + good, "-1." + mac, expiry + "." + mac + "=",
        expiry + "." + mac + "AAAA", expiry + "." + mac.substring(4), expiry + ".!!!", expiry + "." + otherSpelling,
        "1234567890123." + mac, good + "x".repeat(200), expiry + " ." + mac};
    for (String code : bad) {
      assertEquals(Verdict.MALFORMED_CODE, codes.redeem(code, NOW), "code " + code);
    }
    assertEquals(Verdict.MALFORMED_CODE, codes.redeem(mint(TOKEN, NOW.plus(Duration.ofDays(30))), NOW),
        "a code good for longer than a day was not minted by parl");
    assertEquals(Verdict.ACCEPTED, codes.redeem(good, NOW), "none of these used the good code up");
  }

  @Test
  void theMemoryOfUsedCodesIsBounded() {
    for (int i = 0; i < LoginCodes.MAX_REMEMBERED; i++) {
      assertEquals(Verdict.ACCEPTED, codes.redeem(mint(TOKEN, NOW.plusSeconds(100 + i)), NOW));
    }
    assertEquals(Verdict.TOO_MANY_CODES, codes.redeem(fresh(), NOW));
    assertEquals(Verdict.ACCEPTED, codes.redeem(fresh(), NOW.plusSeconds(200)), "room again once some expired");
    assertEquals(LoginCodes.MAX_REMEMBERED - 100, codes.remembered(), "the 101 expired ones were forgotten, the new one kept");
  }

  @Test
  void aLinkCarriesAFreshCode() {
    String link = LoginCodes.link(URL, TOKEN);
    assertTrue(link.startsWith("https://127.0.0.1:8110/login?code="), link);
    String code = link.substring(link.indexOf("code=") + 5);
    assertTrue(code.matches("[0-9]+\\.[A-Za-z0-9_-]{43}"), code);
    assertEquals(Verdict.ACCEPTED, codes.redeem(code, Instant.now()));
    assertTrue(Base64.getUrlDecoder().decode(code.substring(code.indexOf('.') + 1)).length == 32);
  }
}
