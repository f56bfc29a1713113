package org.parl.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.parl.internal.security.ClusterToken;
import org.parl.tls.ClusterKeys;

/**
 * The monitor's door over real HTTPS: the cluster's certificate, 401 answers (JSON for the API,
 * the token page for pages), the Bearer token, and logins by one-time code and by the token
 * page, with the cookie they set.
 */
@ExtendWith(VertxExtension.class)
class MonitorDoorHttpTest {

  private static final String T = "0123456789abcdef".repeat(4);
  private static final ClusterToken TOKEN = ClusterToken.of(T, "test");
  private static final ClusterKeys KEYS = ClusterKeys.derive(TOKEN);

  /** One answer, read whole. */
  private record Reply(int status, MultiMap headers, String body) {
    String header(String name) {
      return headers.get(name);
    }
  }

  private Vertx vertx;
  private HttpServer server;
  private HttpClient client;
  private String url;
  private LoginCodes codes;

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    TokenPage page = within(TokenPage.load(vertx));
    Router router = Router.router(vertx);
    codes = new LoginCodes(TOKEN, () -> url);
    MonitorRoutes.door(router, new MonitorAuth(TOKEN, codes, new Sessions(), page));
    router.get("/api/cluster").handler(ctx -> HttpReplies.json(ctx, new JsonObject().put("workers", List.of())));
    router.get("/metrics").handler(ctx -> ctx.response().end("parl_workers 0\n"));
    router.get("/").handler(ctx -> ctx.response().end("workers page"));
    server = within(vertx.createHttpServer(new HttpServerOptions().setSsl(true).setKeyCertOptions(KEYS.keyCert()))
        .requestHandler(router).listen(0, "127.0.0.1"));
    url = "https://127.0.0.1:" + server.actualPort();
    // one connection per request: no request can land on a pooled connection the server is closing
    client = vertx.createHttpClient(new HttpClientOptions().setSsl(true).setTrustOptions(KEYS.trust()).setVerifyHost(false)
        .setKeepAlive(false).setConnectTimeout(10_000));
  }

  @AfterEach
  void stop() {
    within(client.close());
    within(server.close());
  }

  private Reply send(HttpMethod method, String path, Map<String, String> headers, String body) {
    RequestOptions options = new RequestOptions().setMethod(method).setHost("127.0.0.1").setPort(server.actualPort())
        .setURI(path).setIdleTimeout(20_000);
    headers.forEach(options::putHeader);
    return within(client.request(options)
        .compose(req -> body == null ? req.send() : req.send(Buffer.buffer(body)))
        .compose(resp -> resp.body().map(b -> new Reply(resp.statusCode(), resp.headers(), b.toString()))));
  }

  private Reply get(String path, Map<String, String> headers) {
    return send(HttpMethod.GET, path, headers, null);
  }

  private Reply postForm(String form) {
    return send(HttpMethod.POST, "/login", Map.of("Content-Type", "application/x-www-form-urlencoded"), form);
  }

  private static String cookieOf(Reply r) {
    String set = r.header("set-cookie");
    assertNotNull(set, "a cookie was set");
    return set.substring(0, set.indexOf(';'));
  }

  @Test
  void withoutCredentialsTheApiGetsAJsonErrorAndPagesTheTokenPage() {
    for (String path : List.of("/api/cluster", "/metrics", "/api/jobs/job-1/log")) {
      Reply r = get(path, Map.of());
      assertEquals(401, r.status(), path);
      assertTrue(r.header("content-type").startsWith("application/json"), path);
      String error = new JsonObject(r.body()).getString("error");
      assertTrue(error.contains("Authorization: Bearer") && error.contains("$PARL_HOME/token") && error.contains("/login?code="), error);
      assertEquals("Bearer realm=\"parl monitor\"", r.header("www-authenticate"));
    }
    Reply page = get("/", Map.of());
    assertEquals(401, page.status());
    assertTrue(page.header("content-type").startsWith("text/html"));
    assertTrue(page.body().contains("<form method=\"post\" action=\"/login\">") && page.body().contains("~/.parl/token"), page.body());
    assertTrue(page.body().contains("name=\"next\" value=\"/\""), "the page leads back to what was asked for");
    assertEquals("DENY", page.header("x-frame-options"));
    assertEquals("no-referrer", page.header("referrer-policy"));
  }

  @Test
  void theBearerTokenOpensEverything() {
    Reply good = get("/api/cluster", Map.of("Authorization", "Bearer " + T));
    assertEquals(200, good.status());
    assertEquals(200, get("/metrics", Map.of("Authorization", "Bearer " + T)).status());
    assertEquals("workers page", get("/", Map.of("Authorization", "Bearer " + T)).body());
    Reply wrong = get("/api/cluster", Map.of("Authorization", "Bearer " + "f".repeat(64)));
    assertEquals(401, wrong.status());
    assertTrue(new JsonObject(wrong.body()).getString("error").startsWith("wrong cluster token"), wrong.body());
    assertEquals(401, get("/api/cluster", Map.of("Authorization", "Basic " + T)).status());
  }

  @Test
  void aLoginCodeSetsASecureCookieOnce() {
    String link = codes.link();
    String path = link.substring(url.length());
    Reply login = get(path, Map.of());
    assertEquals(303, login.status());
    assertEquals("/", login.header("location"));
    String set = login.header("set-cookie");
    assertTrue(set.startsWith(MonitorAuth.COOKIE + "="), set);
    for (String attribute : List.of("Path=/", "HttpOnly", "Secure", "SameSite=Strict", "Max-Age=43200")) {
      assertTrue(set.toLowerCase(java.util.Locale.ROOT).contains(attribute.toLowerCase(java.util.Locale.ROOT)), attribute + " in " + set);
    }
    String cookie = cookieOf(login);
    assertEquals(200, get("/api/cluster", Map.of("Cookie", cookie)).status());
    assertEquals("workers page", get("/", Map.of("Cookie", cookie)).body());
    assertEquals(401, get("/api/cluster", Map.of("Cookie", MonitorAuth.COOKIE + "=forged")).status());

    Reply again = get(path, Map.of());
    assertEquals(401, again.status());
    assertTrue(again.body().contains("already used"), again.body());
    assertEquals(null, again.header("set-cookie"));
    assertEquals(401, get("/login?code=12.abc", Map.of()).status());
    assertEquals(200, get("/login", Map.of()).status(), "without a code, /login is the token page");
  }

  @Test
  void theTokenPageLogsInWithTheToken() {
    Reply wrong = postForm("token=" + "f".repeat(64) + "&next=%2Fclients.html");
    assertEquals(401, wrong.status());
    assertTrue(wrong.body().contains("wrong cluster token") && wrong.body().contains("value=\"/clients.html\""), wrong.body());

    Reply good = postForm("token=" + T + "&next=%2Fclients.html");
    assertEquals(303, good.status());
    assertEquals("/clients.html", good.header("location"));
    assertEquals(200, get("/api/cluster", Map.of("Cookie", cookieOf(good))).status());

    assertEquals("/", postForm("token=" + T + "&next=%2F%2Fevil.example%2F").header("location"), "never to another site");
    assertEquals(401, postForm("next=%2F").status());
    assertEquals(413, postForm("token=" + "x".repeat(20_000)).status(), "big bodies are not read");
  }

  @Test
  void theMonitorPresentsTheClusterCertificate() {
    HttpClient stranger = vertx.createHttpClient(new HttpClientOptions().setSsl(true)
        .setTrustOptions(ClusterKeys.derive(ClusterToken.of("b".repeat(64), "test")).trust()).setVerifyHost(false));
    try {
      assertThrows(Exception.class, () -> stranger.request(HttpMethod.GET, server.actualPort(), "127.0.0.1", "/login")
          .compose(req -> req.send()).await(30, TimeUnit.SECONDS), "a client that trusts another cluster's certificate refuses this one");
    } finally {
      within(stranger.close());
    }
  }

  /** Every wait of this test is bounded: a hang becomes a failure that says so. */
  private static <T> T within(io.vertx.core.Future<T> f) {
    try {
      return f.await(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("no answer within 30 s", e);
    }
  }
}
