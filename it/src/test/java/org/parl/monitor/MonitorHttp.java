package org.parl.monitor;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import org.parl.security.ClusterToken;
import org.parl.tls.ClusterKeys;

/**
 * A blocking HTTPS client for the monitor's API in cluster tests (plain {@code java.net.http}).
 * It trusts exactly the cluster's certificate, derived from the token as every node derives it
 * (the certificate names no host, so it checks the certificate itself instead of the host name),
 * and sends {@code Authorization: Bearer <token>} unless made {@link #anonymous()}.
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
    this(base, token, client(ClusterKeys.derive(ClusterToken.of(token, "test")).certificate()));
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

  private HttpRequest request(String rawPath, Map<String, String> headers) {
    Map<String, String> all = new LinkedHashMap<>(headers);
    if (token != null) {
      all.putIfAbsent("Authorization", "Bearer " + token);
    }
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + rawPath)).timeout(Duration.ofSeconds(30)).GET();
    all.forEach(b::header);
    return b.build();
  }

  private static HttpClient client(X509Certificate cluster) {
    try {
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(null, new javax.net.ssl.TrustManager[] {new Pinned(cluster)}, null);
      return HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(30)) // a first TLS handshake in a cold, busy JVM can take seconds
          .sslContext(tls)
          .build();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Trusts one certificate, whatever host name it is reached by. */
  private static final class Pinned extends X509ExtendedTrustManager {

    private final X509Certificate expected;

    Pinned(X509Certificate expected) {
      this.expected = expected;
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
      if (chain == null || chain.length == 0 || !chain[0].equals(expected)) {
        throw new CertificateException("the monitor does not present the cluster's certificate");
      }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
      checkServerTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
      checkServerTrusted(chain, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
      throw new CertificateException("a client of the monitor only");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
      checkClientTrusted(chain, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
      checkClientTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
