package org.parl.monitor;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.parl.internal.security.ClusterToken;
import org.parl.tls.ClusterAuthority;

/**
 * A blocking HTTPS client for the monitor's API in cluster tests (plain {@code java.net.http}).
 * It trusts the cluster's CA alone, derived from the token as every node derives it, and checks
 * the monitor's certificate and host name against it as curl or a browser does; it sends
 * {@code Authorization: Bearer <token>} unless made {@link #anonymous()}.
 */
public final class MonitorHttp {

  /** One answer: status, content type, body text. */
  public record Reply(int status, String contentType, String body, HttpResponse<?> raw) {

    public JsonObject json() {
      return new JsonObject(body);
    }

    public String header(String name) {
      return raw.headers().firstValue(name).orElse(null);
    }
  }

  private final String base;
  private final String token;
  private final HttpClient http;

  /**
   * @param base the monitor's URL, such as {@code https://127.0.0.1:8110}
   * @param token the cluster token: what the client trusts and, as a Bearer token, what it sends
   */
  public MonitorHttp(String base, String token) {
    this(base, token, client(ClusterAuthority.derive(ClusterToken.of(token, "test")).certificate()));
  }

  private MonitorHttp(String base, String token, HttpClient http) {
    this.base = base;
    this.token = token;
    this.http = http;
  }

  public String base() {
    return base;
  }

  /** The same client without the Bearer token. */
  public MonitorHttp anonymous() {
    return new MonitorHttp(base, null, http);
  }

  /** The same client sending another Bearer token. */
  public MonitorHttp withToken(String other) {
    return new MonitorHttp(base, other, http);
  }

  /** GET of a path sent exactly as written (no normalisation, no encoding). */
  public Reply get(String rawPath) throws IOException, InterruptedException {
    return get(rawPath, Map.of());
  }

  /** GET with extra headers (a {@code Cookie}, say). */
  public Reply get(String rawPath, Map<String, String> headers) throws IOException, InterruptedException {
    HttpResponse<String> r = http.send(request(rawPath, headers), HttpResponse.BodyHandlers.ofString());
    return new Reply(r.statusCode(), r.headers().firstValue("content-type").orElse(""), r.body(), r);
  }

  /**
   * GET of an endless stream ({@code /api/events}): reads the status and headers, and the body
   * only when it is an error; never waits for the stream to end.
   */
  public Reply open(String rawPath) throws IOException, InterruptedException {
    HttpResponse<InputStream> r = http.send(request(rawPath, Map.of()), HttpResponse.BodyHandlers.ofInputStream());
    String body = "";
    try (InputStream in = r.body()) {
      if (r.statusCode() != 200) {
        body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
    }
    return new Reply(r.statusCode(), r.headers().firstValue("content-type").orElse(""), body, r);
  }

  /** GET that must answer 200 with JSON. */
  public JsonObject json(String rawPath) throws IOException, InterruptedException {
    Reply r = get(rawPath);
    if (r.status() != 200) {
      throw new AssertionError("GET " + rawPath + " answered " + r.status() + ": " + r.body());
    }
    return r.json();
  }

  /** POST of {@code body} with this content type. */
  public Reply post(String rawPath, String contentType, String body) throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + rawPath)).timeout(Duration.ofSeconds(30))
        .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    return new Reply(r.statusCode(), r.headers().firstValue("content-type").orElse(""), r.body(), r);
  }

  private HttpRequest request(String rawPath, Map<String, String> headers) {
    Map<String, String> all = new LinkedHashMap<>(headers);
    if (token != null) {
      all.putIfAbsent("Authorization", "Bearer " + token);
    }
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + rawPath)).timeout(Duration.ofSeconds(30)).GET();
    all.forEach(b::header);
    return b.build();
  }

  /**
   * A client that trusts {@code authority} alone, checking certificates and host names as any HTTPS
   * client does.
   */
  public static MonitorHttp trusting(String base, String token, X509Certificate authority) {
    return new MonitorHttp(base, token, client(authority));
  }

  /** An HTTP client whose only trust anchor is {@code authority}. */
  public static HttpClient client(X509Certificate authority) {
    try {
      KeyStore anchors = KeyStore.getInstance("PKCS12");
      anchors.load(null, null);
      anchors.setCertificateEntry("ca", authority);
      TrustManagerFactory trust = TrustManagerFactory.getInstance("PKIX");
      trust.init(anchors);
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(null, trust.getTrustManagers(), null);
      return HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(30)) // a first TLS handshake in a cold, busy JVM can take seconds
          .sslContext(tls)
          .build();
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
