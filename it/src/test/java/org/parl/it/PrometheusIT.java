package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.internal.security.ClusterToken;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;
import org.parl.monitor.MonitorHttp;
import org.parl.tls.ClusterAuthority;

/**
 * A real Prometheus (Debian's package, which {@code bin/setup-prometheus} installs) scrapes the
 * monitor as the README tells operators to: {@code authorization} with a credentials file and
 * {@code tls_config.ca_file} with the cluster's CA, no skip flag. Its HTTP API then has the
 * cluster's values; and {@code promtool check metrics} finds nothing to say about {@code /metrics}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PrometheusIT {

  static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
  static final Path PROMTOOL = Path.of("/usr/bin/promtool");
  private static final Duration SCRAPED = Duration.ofSeconds(30);
  private static final int CALLS = 7;

  private TestCluster cluster;
  private MonitorHttp http;
  private ParlClient client;
  private Path dir;
  private ParlProcess prometheus;
  private String api;
  private String target;

  @BeforeAll
  void start() throws Exception {
    cluster = TestCluster.start(2);
    String monitor = cluster.master.awaitLine("monitor: (https://[^/\\s]+)/login", TestCluster.START).group(1);
    target = monitor.substring("https://".length());
    http = new MonitorHttp(monitor, cluster.token());
    client = cluster.connect();
    RemoteActor<Counter> actor = client.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await();
    for (int i = 0; i < CALLS; i++) {
      actor.call(c -> c.add(1)).await(20, TimeUnit.SECONDS);
    }

    dir = Files.createTempDirectory("parl-prometheus");
    Path token = dir.resolve("parl-token");
    Files.writeString(token, cluster.token() + "\n");
    Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
    Path ca = Files.writeString(dir.resolve("parl-ca.pem"), ClusterAuthority.derive(ClusterToken.of(cluster.token(), "test")).pem());
    Path config = Files.writeString(dir.resolve("prometheus.yml"), """
        global:
          scrape_interval: 1s
          scrape_timeout: 1s
          evaluation_interval: 1s
        scrape_configs:
          - job_name: parl
            scheme: https
            authorization:
              credentials_file: %s
            tls_config:
              ca_file: %s
            static_configs:
              - targets: ['%s']
        """.formatted(token, ca, target));
    ParlProcess check = ParlProcess.startCommand(Map.of(), "promtool",
        List.of(PROMTOOL.toString(), "check", "config", config.toString()));
    assertEquals(0, check.awaitExit(Duration.ofSeconds(30)), check.output());

    int port;
    try (ServerSocket free = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    api = "http://127.0.0.1:" + port + "/api/v1/";
    prometheus = ParlProcess.startCommand(Map.of(), "prometheus", List.of(PROMETHEUS.toString(),
        "--config.file=" + config, "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port,
        "--log.level=info"));
    prometheus.awaitLine("Server is ready to receive web requests", Duration.ofSeconds(60));
  }

  @AfterAll
  void stop() throws Exception {
    if (prometheus != null) {
      prometheus.stop(Duration.ofSeconds(30)); // SIGTERM to its pid: it flushes and exits
    }
    if (client != null) {
      client.close();
    }
    if (cluster != null) {
      cluster.close();
    }
    TempTrees.delete(dir);
  }

  @Test
  void promtoolFindsNothingToSayAboutTheMetrics() throws Exception {
    String metrics = http.get("/metrics").body();
    ProcessBuilder pb = new ProcessBuilder(PROMTOOL.toString(), "check", "metrics").redirectErrorStream(true);
    Process p = pb.start();
    try {
      try (var in = p.getOutputStream()) {
        in.write(metrics.getBytes(StandardCharsets.UTF_8));
      }
      String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertEquals(true, p.waitFor(30, TimeUnit.SECONDS));
      assertEquals("", said, "promtool's findings on:\n" + metrics);
      assertEquals(0, p.exitValue());
    } finally {
      p.destroyForcibly();
    }
  }

  @Test
  void prometheusScrapesTheMonitorWithTheTokenAndTheCaAndHasThePoolsValues() throws Exception {
    Await.until("Prometheus scraped the monitor", SCRAPED, () -> query("up{job=\"parl\"}"),
        r -> r.size() == 1 && value(r.getJsonObject(0)) == 1.0);
    JsonObject view = Await.until("the worker counted the calls", SCRAPED, () -> http.json("/api/cluster"),
        v -> calls(v) >= CALLS);
    for (String resource : List.of("cpus", "gpus")) {
      Map<String, Double> expected = new TreeMap<>();
      for (Object o : view.getJsonArray("workers")) {
        JsonObject w = (JsonObject) o;
        JsonObject r = w.getJsonObject(resource);
        expected.put(w.getString("id") + " vacant", resource.equals("cpus") ? r.getInteger("vacant")
            : (double) r.getJsonArray("vacant").size());
        expected.put(w.getString("id") + " used", resource.equals("cpus") ? r.getInteger("used")
            : (double) r.getJsonArray("used").size());
      }
      if (resource.equals("gpus")) {
        assertEquals(1.0, expected.get(cluster.localWorker + " used"), "the actor's GPU");
      }
      Await.until("Prometheus has the cluster's " + resource, SCRAPED,
          () -> byWorkerAndState(query("parl_worker_" + resource)), expected::equals);
    }
    double served = calls(view);
    Await.until("Prometheus has the calls served", SCRAPED,
        () -> query("sum(parl_worker_calls_served_total)"), r -> r.size() == 1 && value(r.getJsonObject(0)) == served);
    Await.until("Prometheus has the waiting requests", SCRAPED,
        () -> query("parl_pending_requests"), r -> r.size() == 1
            && value(r.getJsonObject(0)) == view.getJsonObject("totals").getInteger("waiting"));
    JsonObject totals = view.getJsonObject("totals");
    assertEquals(1L, totals.getLong("jobsStarted"), "the one actor");
    for (String counter : List.of("jobsStarted", "jobsLost")) {
      String metric = counter.equals("jobsStarted") ? "parl_jobs_started_total" : "parl_jobs_lost_total";
      Await.until("Prometheus has " + metric, SCRAPED, () -> query(metric),
          r -> r.size() == 1 && value(r.getJsonObject(0)) == totals.getLong(counter));
    }
    assertFalse(query("parl_gpu_utilization_percent").isEmpty(), "per-GPU series");
  }

  @Test
  void everyPanelOfTheGrafanaDashboardHasData() throws Exception {
    Path file = Path.of(System.getProperty("parl.root", "..")).resolve("docs/grafana/parl.json");
    JsonObject dashboard = new JsonObject(Files.readString(file));
    assertEquals("DS_PROMETHEUS", dashboard.getJsonArray("__inputs").getJsonObject(0).getString("name"),
        "imported as is, Grafana asks for the Prometheus to use");
    Await.until("Prometheus scraped the monitor", SCRAPED, () -> query("up{job=\"parl\"}"),
        r -> r.size() == 1 && value(r.getJsonObject(0)) == 1.0);
    int queries = 0;
    for (Object p : dashboard.getJsonArray("panels")) {
      JsonObject panel = (JsonObject) p;
      for (Object t : panel.getJsonArray("targets")) {
        String expr = ((JsonObject) t).getString("expr");
        // Grafana's own variable, as it fills it in for a 1 s scrape interval at most
        String promql = expr.replace("$__rate_interval", "1m");
        Await.until("panel '" + panel.getString("title") + "' (" + expr + ") has data", SCRAPED, () -> query(promql),
            r -> !r.isEmpty());
        queries++;
      }
    }
    assertEquals(21, queries, "every panel's queries ran");
  }

  private static long calls(JsonObject view) {
    long n = 0;
    for (Object o : view.getJsonArray("workers")) {
      n += ((JsonObject) o).getLong("callsServed", 0L);
    }
    return n;
  }

  private static Map<String, Double> byWorkerAndState(JsonArray result) {
    Map<String, Double> m = new TreeMap<>();
    for (Object o : result) {
      JsonObject metric = ((JsonObject) o).getJsonObject("metric");
      m.put(metric.getString("worker") + " " + metric.getString("state"), value((JsonObject) o));
    }
    return m;
  }

  private static double value(JsonObject sample) {
    return Double.parseDouble(sample.getJsonArray("value").getString(1));
  }

  /** An instant query through Prometheus' HTTP API: its result vector. */
  JsonArray query(String promql) throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create(api + "query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)))
        .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
    JsonObject body = new JsonObject(r.body());
    if (r.statusCode() != 200 || !"success".equals(body.getString("status"))) {
      throw new AssertionError("Prometheus refused " + promql + ": " + r.body());
    }
    return body.getJsonObject("data").getJsonArray("result");
  }
}
