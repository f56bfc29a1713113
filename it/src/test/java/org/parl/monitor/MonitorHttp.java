package org.parl.monitor;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A blocking HTTP client for the monitor's API in cluster tests (plain {@code java.net.http}). */
public final class MonitorHttp {

  /** One answer: status, content type, body text. */
  public record Reply(int status, String contentType, String body, HttpResponse<String> raw) {

    public JsonObject json() {
      return new JsonObject(body);
    }

    public String header(String name) {
      return raw.headers().firstValue(name).orElse(null);
    }
  }

  private final String base;
  private final HttpClient http = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .build();

  /** @param base the monitor's URL, such as {@code http://127.0.0.1:8110} */
  public MonitorHttp(String base) {
    this.base = base;
  }

  public String base() {
    return base;
  }

  /** GET of a path sent exactly as written (no normalisation, no encoding). */
  public Reply get(String rawPath) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create(base + rawPath)).timeout(Duration.ofSeconds(20)).GET().build();
    HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
    return new Reply(r.statusCode(), r.headers().firstValue("content-type").orElse(""), r.body(), r);
  }

  /** GET that must answer 200 with JSON. */
  public JsonObject json(String rawPath) throws IOException, InterruptedException {
    Reply r = get(rawPath);
    if (r.status() != 200) {
      throw new AssertionError("GET " + rawPath + " answered " + r.status() + ": " + r.body());
    }
    return r.json();
  }
}
