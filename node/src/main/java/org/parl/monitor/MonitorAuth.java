package org.parl.monitor;

import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.parl.internal.security.ClusterToken;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The monitor's door (docs/contract.md §6, §9). Every request but the login itself must carry the cluster
 * token, as {@code Authorization: Bearer <token>}, or the cookie of a session opened at
 * {@code /login} (with a one-time code, or the token typed into the token page). Refused API
 * requests get 401 with a JSON error that says how to authenticate; pages get the token page.
 */
final class MonitorAuth {

  private static final Logger log = LoggerFactory.getLogger(MonitorAuth.class);
  static final String COOKIE = "parl_session";
  static final String HOW = "send 'Authorization: Bearer <token>' with the cluster token (the file $PARL_HOME/token,"
      + " by default ~/.parl/token, on the master's host), or open the one-time login link that 'parl master' printed"
      + " (https://HOST:PORT/login?code=...)";
  private static final Pattern BEARER = Pattern.compile("(?i)bearer +(\\S+) *");

  private final ClusterToken token;
  private final LoginCodes codes;
  private final Sessions sessions;
  private final TokenPage page;

  MonitorAuth(ClusterToken token, LoginCodes codes, Sessions sessions, TokenPage page) {
    this.token = token;
    this.codes = codes;
    this.sessions = sessions;
    this.page = page;
  }

  /**
   * The verdict on a request's credentials. An {@code Authorization} header, when there is one,
   * decides alone; otherwise the session cookie does.
   */
  Verdict check(String authorization, String session, Instant now) {
    if (authorization != null) {
      Matcher m = BEARER.matcher(authorization);
      if (!m.matches()) {
        return Verdict.MALFORMED_HEADER;
      }
      return token.matches(m.group(1)) ? Verdict.ACCEPTED : Verdict.WRONG_TOKEN;
    }
    return session == null ? Verdict.MISSING : sessions.check(session, now);
  }

  /** In front of every route but {@code /login}. */
  void authenticate(RoutingContext ctx) {
    Cookie cookie = ctx.request().getCookie(COOKIE);
    Verdict v = check(ctx.request().getHeader(HttpHeaders.AUTHORIZATION), cookie == null ? null : cookie.getValue(), Instant.now());
    if (v.accepted()) {
      ctx.next();
    } else {
      refuse(ctx, v, ctx.request().method() == HttpMethod.GET ? ctx.request().uri() : "/");
    }
  }

  /** {@code GET /login?code=C}: a good one-time code opens a session; no code shows the token page. */
  void loginWithCode(RoutingContext ctx) {
    String code = ctx.request().getParam("code");
    if (code == null) {
      html(ctx, 200, "", "/");
      return;
    }
    Verdict v = codes.redeem(code, Instant.now());
    if (v.accepted()) {
      openSession(ctx, "/", "a login link");
    } else {
      refuse(ctx, v, "/");
    }
  }

  /** {@code POST /login} from the token page: form fields {@code token} and {@code next}. */
  void loginWithToken(RoutingContext ctx) {
    String presented = ctx.request().getFormAttribute("token");
    String next = safeNext(ctx.request().getFormAttribute("next"));
    if (presented == null || presented.isBlank()) {
      refuse(ctx, Verdict.MISSING, next);
    } else if (token.matches(presented.strip())) {
      openSession(ctx, next, "the token page");
    } else {
      refuse(ctx, Verdict.WRONG_TOKEN, next);
    }
  }

  /** Where to go after logging in: a path on this monitor, never another site; else {@code /}. */
  static String safeNext(String next) {
    boolean local = next != null && next.length() <= 2048 && next.startsWith("/") && !next.startsWith("//")
        && !next.startsWith("/login") && next.chars().allMatch(c -> c > 0x20 && c < 0x7f && c != '\\');
    return local ? next : "/";
  }

  private void openSession(RoutingContext ctx, String next, String how) {
    String id = sessions.open(Instant.now());
    ctx.response().addCookie(Cookie.cookie(COOKIE, id).setPath("/").setHttpOnly(true).setSecure(true)
        .setSameSite(CookieSameSite.STRICT).setMaxAge(Sessions.LIFETIME.toSeconds()));
    ctx.response().setStatusCode(303)
        .putHeader(HttpHeaders.LOCATION, next)
        .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
        .end();
    log.info("monitor: a browser at {} logged in with {}", ctx.request().remoteAddress(), how);
  }

  private void refuse(RoutingContext ctx, Verdict v, String next) {
    HttpServerRequest r = ctx.request();
    if (v == Verdict.MISSING) {
      log.debug("monitor refused {} {} from {}: no credentials", r.method(), ApiParams.quote(r.path()), r.remoteAddress());
    } else if (v.suspicious()) {
      log.warn("monitor refused {} {} from {}: {}", r.method(), ApiParams.quote(r.path()), r.remoteAddress(), v.reason());
    } else {
      log.info("monitor refused {} {} from {}: {}", r.method(), ApiParams.quote(r.path()), r.remoteAddress(), v.reason());
    }
    ctx.response().putHeader("WWW-Authenticate", "Bearer realm=\"parl monitor\"");
    if (isApi(r.path())) {
      HttpReplies.error(ctx, 401, v.reason() + ": " + HOW);
    } else {
      html(ctx, 401, v == Verdict.MISSING ? "" : v.reason(), next);
    }
  }

  private void html(RoutingContext ctx, int status, String message, String next) {
    ctx.response().setStatusCode(status)
        .putHeader(HttpHeaders.CONTENT_TYPE, "text/html; charset=utf-8")
        .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
        .end(page.render(message, safeNext(next)));
  }

  /** Requests from programs (the API, Prometheus) get JSON; everything else is a page. */
  private static boolean isApi(String path) {
    return path != null && (path.equals("/api") || path.startsWith("/api/") || path.startsWith("/metrics"));
  }
}
