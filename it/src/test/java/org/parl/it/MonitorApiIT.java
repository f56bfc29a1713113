package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
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
 * The web monitor's API against a live GPU cluster (a master lending 4 fake GPUs and a worker
 * lending 2): {@code /api/cluster} agrees exactly with the JobCenter, jobs and logs are found,
 * {@code /metrics} is right, bad input gets JSON errors, and a killed worker disappears quickly.
 * All of it over HTTPS with the cluster's certificate, and only for holders of the cluster token
 * (a Bearer header, or the session cookie that the master's one-time login link sets). Each test
 * starts from both workers wholly vacant and no client; a test that needs actors makes them with a
 * client of its own ({@link #actors()}), closed after it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MonitorApiIT {

  private static final String MARKER = "monitor-it printed this line";
  private static final String CLOSED_LINE = "this actor will be closed";

  private TestCluster cluster;
  private MonitorHttp http;
  private String loginPath;
  private String fingerprint;
  private String w2;
  /** This test's client, when it connected one. */
  private ParlClient parl;

  /** What {@link #actors()} leaves: a 1-GPU actor that printed MARKER, a 2-GPU actor, and the job of a closed one. */
  private record Actors(RemoteActor<Counter> single, RemoteActor<Counter> pair, String closedJob) {}

  @BeforeAll
  void start() throws Exception {
    cluster = TestCluster.start(4);
    Matcher monitor = cluster.master.awaitLine("monitor: (https://[^/\\s]+)(/login\\?code=\\S+)", TestCluster.START);
    http = new MonitorHttp(monitor.group(1), cluster.token());
    loginPath = monitor.group(2);
    fingerprint = cluster.master.awaitLine("\\(certificate issued by the cluster CA with SHA-256 (\\S+)",
        TestCluster.START).group(1);
    w2 = cluster.addWorker(new ParlProcess[1], "--nvidia-smi", cluster.fakeSmi(2).toString());
  }

  @AfterAll
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** The state every test starts from: the two workers, wholly vacant, and no client. */
  @BeforeEach
  void awaitIdle() throws Exception {
    awaitAgreement(view -> view.getJsonObject("totals").getInteger("jobs") == 0
        && view.getJsonObject("totals").getInteger("clients") == 0
        && workerIds(view).equals(Set.of(cluster.localWorker, w2)));
  }

  @AfterEach
  void disconnect() {
    if (parl != null) {
      parl.close();
      parl = null;
    }
  }

  private ParlClient connect() {
    parl = cluster.connect();
    return parl;
  }

  /**
   * Connects this test's client and makes its actors: a 1-GPU one that printed {@link #MARKER}, a
   * 2-GPU one, and a 2-GPU one that printed {@link #CLOSED_LINE} and was closed; returns once the
   * monitor shows the closed one gone.
   */
  private Actors actors() throws Exception {
    ParlClient client = connect();
    RemoteActor<Counter> single = client.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await();
    RemoteActor<Counter> pair = client.actor(Counter.class, CounterImpl.class).gpus(2).createAsync().await();
    RemoteActor<Counter> another = client.actor(Counter.class, CounterImpl.class).gpus(2).createAsync().await();
    single.run(x -> x.print(MARKER)).await(20, TimeUnit.SECONDS);
    another.run(x -> x.print(CLOSED_LINE)).await(20, TimeUnit.SECONDS);
    another.close();
    awaitAgreement(view -> view.getJsonObject("totals").getInteger("jobs") == 2);
    return new Actors(single, pair, another.jobId());
  }

  @Test
  void everyEndpointNeedsTheToken() throws Exception {
    MonitorHttp nobody = http.anonymous();
    MonitorHttp stranger = http.withToken("f".repeat(64));
    List<String> wrong = new ArrayList<>();
    for (MonitorHttp refused : List.of(nobody, stranger)) {
      for (String path : List.of("/api/cluster", "/api/jobs?client=c-1", "/api/jobs/job-1/log", "/api/jobs/job-1/log/download",
          "/api/history", "/metrics", "/api/events", "/api/nothing-here", "/api/jobs/../../etc/passwd")) {
        MonitorHttp.Reply r = path.equals("/api/events") ? refused.open(path) : refused.get(path);
        boolean jsonError = r.contentType().startsWith("application/json") && r.json().getString("error", "").contains("Bearer");
        if (r.status() != 401 || !jsonError) {
          wrong.add((refused == nobody ? "no token: " : "wrong token: ") + path + " -> " + r.status() + " " + r.body());
        }
      }
      for (String path : List.of("/", "/clients.html", "/jobs.html?client=c-1", "/common.js", "/webjars/uplot/1.6.30/dist/uPlot.min.css",
          "/no-such-page.html")) {
        MonitorHttp.Reply r = refused.get(path);
        if (r.status() != 401 || !r.contentType().startsWith("text/html") || !r.body().contains("action=\"/login\"")) {
          wrong.add((refused == nobody ? "no token: " : "wrong token: ") + path + " -> " + r.status() + " " + r.contentType());
        }
      }
    }
    assertEquals(List.of(), wrong, "expected 401: JSON errors for the API, the token page for pages");
    assertTrue(nobody.get("/api/cluster").json().getString("error").contains("$PARL_HOME/token"));
    assertTrue(nobody.get("/").body().contains("~/.parl/token"), "the token page says where the token is");

    assertEquals(200, http.get("/api/cluster").status());
    assertEquals(200, http.get("/metrics").status());
    assertEquals(200, http.get("/").status());
    MonitorHttp.Reply events = http.open("/api/events");
    assertEquals(200, events.status());
    assertTrue(events.contentType().startsWith("text/event-stream"), events.contentType());
  }

  @Test
  void theMastersLoginLinkOpensASessionOnce() throws Exception {
    MonitorHttp browser = http.anonymous();
    MonitorHttp.Reply login = browser.get(loginPath);
    assertEquals(303, login.status(), login.body());
    assertEquals("/", login.header("location"));
    String setCookie = login.header("set-cookie");
    assertTrue(setCookie != null && setCookie.startsWith("parl_session="), setCookie);
    String cookie = setCookie.substring(0, setCookie.indexOf(';'));
    assertEquals(200, browser.get("/api/cluster", Map.of("Cookie", cookie)).status());
    assertEquals(200, browser.get("/metrics", Map.of("Cookie", cookie)).status());
    assertTrue(browser.get("/", Map.of("Cookie", cookie)).body().contains("workers.js"), "the workers page");
    assertEquals(401, browser.get("/api/cluster", Map.of("Cookie", "parl_session=" + "A".repeat(43))).status());

    MonitorHttp.Reply again = browser.get(loginPath);
    assertEquals(401, again.status(), "a login code works once");
    assertTrue(again.contentType().startsWith("text/html") && again.body().contains("already used"), again.body());
    assertEquals(null, again.header("set-cookie"));
    assertEquals(401, browser.get(loginPath.replaceAll(".$", "")).status(), "a mangled code is refused");
  }

  @Test
  void theMonitorPresentsACertificateOfTheClusterCaAndPrintsTheCaFingerprint() {
    ClusterAuthority ca = ClusterAuthority.derive(ClusterToken.of(cluster.token(), "test"));
    assertEquals(HexFormat.ofDelimiter(":").withUpperCase().formatHex(ca.fingerprint()), fingerprint);
    assertTrue(http.base().startsWith("https://127.0.0.1:"), http.base());
    // MonitorHttp trusts that CA alone and checks the host name: every answer in this class came over it
  }

  @Test
  void clusterViewMatchesTheJobCenter() throws Exception {
    JsonObject idle = awaitAgreement();
    assertEquals("gpu", idle.getString("clusterType"));
    assertEquals(2, idle.getJsonObject("totals").getInteger("workers"));
    assertEquals(6, idle.getJsonObject("totals").getJsonObject("gpus").getInteger("total"));

    connect();
    RemoteActor<Counter> single = parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await();
    parl.actor(Counter.class, CounterImpl.class).gpus(2).createAsync().await();
    RemoteActor<Counter> another = parl.actor(Counter.class, CounterImpl.class).gpus(2).createAsync().await();
    single.run(x -> x.print(MARKER)).await(20, TimeUnit.SECONDS);
    another.run(x -> x.print(CLOSED_LINE)).await(20, TimeUnit.SECONDS);

    JsonObject busy = awaitAgreement();
    JsonObject totals = busy.getJsonObject("totals");
    assertEquals(5, totals.getJsonObject("gpus").getInteger("used"));
    assertEquals(1, totals.getJsonObject("gpus").getInteger("vacant"));
    assertEquals(3, totals.getInteger("jobs"));
    assertEquals(1, totals.getInteger("clients"));
    JsonObject client = busy.getJsonArray("clients").getJsonObject(0);
    assertEquals(parl.id(), client.getString("id"));
    assertEquals(3, client.getInteger("actors"));
    assertTrue(client.getString("logUrl").startsWith(http.base() + "/"), client.getString("logUrl"));
    assertTrue(client.getString("logUrl").contains(parl.id()), client.getString("logUrl"));
    assertNotNull(client.getString("program"));
    assertTrue(client.getLong("uptimeS") >= 0);

    another.close();
    JsonObject after = awaitAgreement();
    assertEquals(3, after.getJsonObject("totals").getJsonObject("gpus").getInteger("used"));
    assertEquals(2, after.getJsonObject("totals").getInteger("jobs"));
  }

  @Test
  void aClientsJobsLiveAndEnded() throws Exception {
    Actors a = actors();
    RemoteActor<Counter> single = a.single();
    String closedJob = a.closedJob();
    JsonObject answer = http.json("/api/jobs?client=" + parl.id());
    Map<String, JsonObject> jobs = new HashMap<>();
    answer.getJsonArray("jobs").forEach(j -> jobs.put(((JsonObject) j).getString("jobId"), (JsonObject) j));
    assertEquals(Set.of(single.jobId(), a.pair().jobId(), closedJob), jobs.keySet(), answer.encodePrettily());
    JsonObject live = jobs.get(single.jobId());
    assertEquals("assigned", live.getString("state"));
    assertEquals(single.workerId(), live.getString("workerId"));
    assertEquals(single.gpus(), live.getJsonArray("gpus").stream().map(String::valueOf).toList());
    assertTrue(live.getLong("pid") > 0);
    JsonObject ended = jobs.get(closedJob);
    assertEquals("ended", ended.getString("state"), ended.encode());
    assertNotNull(ended.getLong("endedAt"));
  }

  @Test
  void logsShowWhatTheActorPrinted() throws Exception {
    Actors a = actors();
    RemoteActor<Counter> single = a.single();
    JsonObject log = awaitLog(single.jobId(), MARKER);
    assertEquals(single.jobId(), log.getString("jobId"));
    assertEquals(single.workerId(), log.getString("workerId"));

    single.run(x -> x.print("second line")).await(20, TimeUnit.SECONDS);
    JsonObject one = awaitLog(single.jobId() + "/log?lines=1", "second line");
    assertEquals("second line", one.getString("log").strip(), "lines=1 gives just the last line");

    awaitLog(a.closedJob(), CLOSED_LINE);

    MonitorHttp.Reply download = http.get("/api/jobs/" + single.jobId() + "/log/download");
    assertEquals(200, download.status());
    assertTrue(download.contentType().startsWith("text/plain"), download.contentType());
    assertEquals("attachment; filename=\"" + single.jobId() + ".log\"", download.header("content-disposition"));
    assertTrue(download.body().contains(MARKER) && download.body().contains("second line"), download.body());
  }

  @Test
  void metricsInThePrometheusFormat() throws Exception {
    actors();
    MonitorHttp.Reply r = http.get("/metrics");
    assertEquals(200, r.status());
    assertTrue(r.contentType().startsWith("text/plain"), r.contentType());
    Map<String, Double> m = new HashMap<>();
    Set<String> typed = new TreeSet<>();
    for (String line : r.body().split("\n")) {
      if (line.startsWith("# TYPE ")) {
        typed.add(line.split(" ")[2]);
      } else if (!line.startsWith("# HELP ")) {
        assertTrue(line.matches("[a-z_0-9]+(\\{[^}]*\\})? [-+0-9.eEaInfN]+"), "not a sample line: " + line);
        int sp = line.lastIndexOf(' ');
        m.put(line.substring(0, sp), Double.parseDouble(line.substring(sp + 1)));
        String name = line.replaceAll("[{ ].*", "");
        assertTrue(typed.contains(name), "no # TYPE before " + line);
      }
    }
    JsonObject snapshot = cluster.member().snapshot();
    assertEquals(2.0, m.get("parl_workers"));
    assertEquals(1.0, m.get("parl_clients"));
    assertEquals((double) snapshot.getJsonArray("jobs").size(), m.get("parl_jobs"));
    assertEquals(0.0, m.get("parl_pending_requests"));
    assertEquals(0.0, m.get("parl_pending_longest_wait_seconds"));
    for (Object o : snapshot.getJsonArray("workers")) {
      JsonObject w = (JsonObject) o;
      String labels = "worker=\"" + w.getString("id") + "\",hostname=\"" + w.getString("hostname") + "\"";
      assertEquals((double) w.getJsonArray("worker_vacant_gpus").size(), m.get("parl_worker_gpus{" + labels + ",state=\"vacant\"}"));
      assertEquals((double) w.getJsonArray("worker_used_gpus").size(), m.get("parl_worker_gpus{" + labels + ",state=\"used\"}"));
      assertEquals((double) w.getJsonArray("jobs").size(), m.get("parl_worker_jobs{" + labels + "}"));
      assertNotNull(m.get("parl_worker_cpus{" + labels + ",state=\"vacant\"}"));
      assertNotNull(m.get("parl_worker_calls_served_total{" + labels + "}"));
    }
  }

  @Test
  void badInputGetsJsonErrors() throws Exception {
    String job = actors().single().jobId();
    Map<String, Integer> cases = new java.util.LinkedHashMap<>();
    cases.put("/api/jobs/job-999999/log", 404);
    cases.put("/api/jobs/job-999999/log/download", 404);
    cases.put("/api/jobs/nope/log", 404);
    cases.put("/api/jobs/../../etc/passwd", 404);
    cases.put("/api/jobs/../log", 404);
    cases.put("/api/jobs/%2e%2e%2f%2e%2e%2fetc%2fpasswd/log", 404);
    cases.put("/api/jobs/..%2f" + job + "/log", 404);
    cases.put("/api/jobs/" + job + "%2f..%2f..%2fx/log/download", 404);
    cases.put("/api/jobs/" + job + "/log?lines=0", 400);
    cases.put("/api/jobs/" + job + "/log?lines=-5", 400);
    cases.put("/api/jobs/" + job + "/log?lines=10001", 400);
    cases.put("/api/jobs/" + job + "/log?lines=99999999999999999999", 400);
    cases.put("/api/jobs/" + job + "/log?lines=abc", 400);
    cases.put("/api/jobs/" + job + "/log?lines=", 400);
    cases.put("/api/jobs?client=c-00000000", 404);
    cases.put("/api/jobs?client=..%2f..%2fetc", 404);
    cases.put("/api/jobs", 400);
    cases.put("/api/nothing-here", 404);
    List<String> wrong = new ArrayList<>();
    for (Map.Entry<String, Integer> c : cases.entrySet()) {
      MonitorHttp.Reply r = http.get(c.getKey());
      boolean jsonError = r.contentType().startsWith("application/json") && r.json().getString("error") != null;
      if (r.status() != c.getValue() || !jsonError) {
        wrong.add(c.getKey() + " -> " + r.status() + " " + r.contentType() + " " + r.body());
      }
    }
    assertEquals(List.of(), wrong, "expected status with a JSON {\"error\"} body");
    assertEquals(200, http.get("/api/jobs/" + job + "/log?lines=10000").status(), "the node keeps answering");
  }

  @Test
  void aStandAloneMonitorShowsTheSameCluster() throws Exception {
    RemoteActor<Counter> single = actors().single();
    try (ParlProcess standAlone = ParlProcess.start(ParlProcess.env(cluster.home), "monitor", "--address", cluster.address,
        "--port", "0")) {
      MonitorHttp other = new MonitorHttp(standAlone.awaitLine("parl monitor ready: (https://\\S+)", TestCluster.START).group(1),
          cluster.token());
      assertTrue(!other.base().equals(http.base()));
      String otherLogin = standAlone.awaitLine("monitor: (https://\\S+)", TestCluster.START).group(1);
      assertTrue(otherLogin.startsWith(other.base() + "/login?code="), otherLogin);
      assertEquals(401, other.anonymous().get("/api/cluster").status());
      assertEquals(401, other.anonymous().get(loginPath).status(), "the master's code is not good on another monitor");
      MonitorHttp.Reply login = other.anonymous().get(otherLogin.substring(other.base().length()));
      assertEquals(303, login.status(), "its own printed link is");
      JsonObject mine = awaitAgreement();
      JsonObject theirs = other.json("/api/cluster");
      assertEquals(workerIds(mine), workerIds(theirs));
      assertEquals(mine.getJsonObject("totals"), theirs.getJsonObject("totals"));
      assertTrue(theirs.getJsonArray("clients").getJsonObject(0).getString("logUrl").startsWith(other.base() + "/jobs.html?client="));
      assertTrue(other.json("/api/jobs/" + single.jobId() + "/log").getString("log").contains(MARKER));
      assertEquals(404, other.get("/api/jobs/job-0/log").status());
      int code = standAlone.stop(Duration.ofSeconds(30));
      assertTrue(code == 0 || code == 143, "SIGTERM stops it cleanly, exit " + code + ":\n" + standAlone.output());
    }
  }

  @Test
  void theMonitorsPortGivenAsTheMastersIsNamedAtOnce() {
    String monitorAddress = java.net.URI.create(http.base()).getAuthority();
    // a node command on the master's host: its cluster file names the master whose monitor this is
    ParlProcess monitor = ParlProcess.start(ParlProcess.env(cluster.home), "monitor", "--address", monitorAddress);
    assertEquals(1, monitor.awaitExit(Duration.ofSeconds(60)), monitor.output());
    assertTrue(monitor.output().contains("parl: " + monitorAddress + " is parl's monitor port; the master's address is "
        + cluster.address), monitor.output());
    assertTrue(!monitor.output().contains("\tat "), "one sentence, no stack trace: " + monitor.output());
    // a program, which reads no cluster file: what it found, said at the handshake rather than after a read's timeout
    org.parl.ParlException e = org.junit.jupiter.api.Assertions.assertThrows(org.parl.ParlException.class,
        () -> org.parl.Parl.connect(new org.parl.ConnectOptions(monitorAddress).setTokenFile(cluster.tokenFile())));
    assertTrue(e.getMessage().startsWith(monitorAddress + " is an HTTPS server (it chose http/1.1), not a parl master's "
        + "gateway: parl's monitor serves HTTPS"), e.getMessage());
  }

  @Test
  void monitorCommandLineErrors() {
    ParlProcess noMaster = ParlProcess.start(ParlProcess.env(cluster.home), "monitor", "--address", "127.0.0.1:1");
    assertEquals(1, noMaster.awaitExit(Duration.ofSeconds(60)), noMaster.output());
    assertTrue(noMaster.output().contains("no parl master answers at 127.0.0.1:1"), noMaster.output());
    ParlProcess badPort = ParlProcess.start(ParlProcess.env(cluster.home), "monitor", "--address", cluster.address, "--port", "70000");
    assertEquals(2, badPort.awaitExit(Duration.ofSeconds(60)), badPort.output());
    ParlProcess noAddress = ParlProcess.start(ParlProcess.env(cluster.home), "monitor");
    assertEquals(2, noAddress.awaitExit(Duration.ofSeconds(60)), noAddress.output());
    ParlProcess noToken = ParlProcess.start(ParlProcess.env(cluster.home), "monitor", "--address", cluster.address,
        "--token-file", cluster.home.resolve("no-such-token").toString());
    assertEquals(1, noToken.awaitExit(Duration.ofSeconds(60)), noToken.output());
    assertTrue(noToken.output().contains("no-such-token") && noToken.output().contains("does not exist"), noToken.output());
    assertTrue(!noToken.output().contains("\tat "), "one sentence, no stack trace: " + noToken.output());
  }

  @Test
  void anOperatorDrainsAGpuAndAWorkerFromTheMonitor() throws Exception {
    String json = "application/json";
    assertEquals(200, http.post("/api/drain", json, "{\"worker\":\"" + w2 + "\",\"gpu\":1,\"drained\":true}").status());
    JsonObject s = cluster.awaitSnapshot(x -> true, java.time.Duration.ofSeconds(5));
    JsonObject worker = s.getJsonArray("workers").stream().map(JsonObject.class::cast)
        .filter(w -> w.getString("id").equals(w2)).findFirst().orElseThrow();
    assertEquals(java.util.List.of(1), worker.getJsonArray("worker_out_of_service_gpus").getList(), worker.encode());
    assertEquals(200, http.post("/api/drain", json, "{\"worker\":\"" + w2 + "\",\"gpu\":1,\"drained\":false}").status());
    assertEquals(200, http.post("/api/drain", json, "{\"worker\":\"" + w2 + "\",\"drained\":true}").status());
    assertEquals(200, http.post("/api/drain", json, "{\"worker\":\"" + w2 + "\",\"drained\":false}").status());
    cluster.awaitSnapshot(x -> x.getJsonArray("workers").stream().map(JsonObject.class::cast)
        .allMatch(w -> w.getJsonArray("worker_out_of_service_gpus").isEmpty() && !w.getBoolean("drained")),
        java.time.Duration.ofSeconds(5));
    // wrong input: a clear error, nothing changed
    MonitorHttp.Reply unknown = http.post("/api/drain", json, "{\"worker\":\"w-nobody\",\"drained\":true}");
    assertEquals(404, unknown.status(), unknown.body());
    assertTrue(unknown.json().getString("error").contains("w-nobody"), unknown.body());
    assertEquals(415, http.post("/api/drain", "application/x-www-form-urlencoded", "worker=" + w2 + "&drained=true").status());
    assertEquals(400, http.post("/api/drain", json, "{\"worker\":\"" + w2 + "\",\"gpu\":-1,\"drained\":true}").status());
    assertEquals(400, http.post("/api/drain", json, "[1]").status());
    assertEquals(401, http.anonymous().post("/api/drain", json, "{\"worker\":\"" + w2 + "\",\"drained\":true}").status());
    cluster.awaitSnapshot(x -> x.getJsonArray("workers").stream().map(JsonObject.class::cast)
        .noneMatch(w -> w.getBoolean("drained")), java.time.Duration.ofSeconds(5));
  }

  @Test
  void aKilledWorkerLeavesTheViewQuickly() throws Exception {
    ParlProcess[] handle = new ParlProcess[1];
    String w3 = cluster.addWorker(handle, "--nvidia-smi", cluster.fakeSmi(3).toString());
    try (ParlProcess thirdWorker = handle[0]) {
      awaitAgreement(view -> workerIds(view).contains(w3));
      assertTrue(workerIds(http.json("/api/cluster")).contains(w3));
      long killed = System.nanoTime();
      thirdWorker.kill();
      JsonObject view = Await.until("worker " + w3 + " leaving /api/cluster after it was killed", Duration.ofSeconds(10),
          () -> http.json("/api/cluster"), v -> !workerIds(v).contains(w3));
      long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
      System.out.println("MonitorApiIT: killed worker " + w3 + " gone from /api/cluster after " + ms + " ms");
      assertEquals(2, view.getJsonObject("totals").getInteger("workers"));
      assertEquals(6, view.getJsonObject("totals").getJsonObject("gpus").getInteger("total"));
      awaitAgreement();
    }
  }

  // ---- helpers -----------------------------------------------------------------------------------

  private static Set<String> workerIds(JsonObject view) {
    return view.getJsonArray("workers").stream().map(w -> ((JsonObject) w).getString("id")).collect(Collectors.toSet());
  }

  /** Polls until /api/cluster and the JobCenter's snapshot agree exactly; returns the view. */
  private JsonObject awaitAgreement() throws Exception {
    return awaitAgreement(view -> true);
  }

  /** Polls until /api/cluster and the JobCenter's snapshot agree exactly and the view passes {@code check}. */
  private JsonObject awaitAgreement(Predicate<JsonObject> check) throws Exception {
    return Await.until("/api/cluster agreeing with the JobCenter", Duration.ofSeconds(15), () -> {
      JsonObject snapshot = cluster.member().snapshot();
      JsonObject view = http.json("/api/cluster");
      String why = disagreement(snapshot, view);
      return new Agreement(snapshot, view, why != null || check.test(view) ? why : "the view is not yet the expected one");
    }, a -> a.why() == null).view();
  }

  /** One comparison of the JobCenter's snapshot with the monitor's view; {@code why} is null when they agree. */
  private record Agreement(JsonObject snapshot, JsonObject view, String why) {
    @Override
    public String toString() {
      return why + "\nsnapshot: " + snapshot.encodePrettily() + "\nview: " + view.encodePrettily();
    }
  }

  private static String disagreement(JsonObject snapshot, JsonObject view) {
    if (!"ok".equals(snapshot.getString("invariant"))) {
      throw new AssertionError("pool invariant broken: " + snapshot.getString("invariant"));
    }
    Map<String, JsonObject> shown = new HashMap<>();
    view.getJsonArray("workers").forEach(w -> shown.put(((JsonObject) w).getString("id"), (JsonObject) w));
    JsonArray workers = snapshot.getJsonArray("workers");
    if (workers.size() != shown.size()) {
      return "workers " + shown.keySet();
    }
    Map<String, String> holderOf = new HashMap<>();
    for (Object o : snapshot.getJsonArray("jobs")) {
      JsonObject j = (JsonObject) o;
      for (Object g : j.getJsonArray("gpus")) {
        holderOf.put(j.getString("workerId") + "/" + g, j.getString("jobId"));
      }
    }
    int used = 0;
    for (Object o : workers) {
      JsonObject w = (JsonObject) o;
      JsonObject v = shown.get(w.getString("id"));
      if (v == null) {
        return "worker " + w.getString("id") + " missing";
      }
      JsonArray vacant = w.getJsonArray("worker_vacant_gpus");
      JsonArray usedIds = w.getJsonArray("worker_used_gpus");
      used += usedIds.size();
      if (!sorted(vacant).equals(sorted(v.getJsonObject("gpus").getJsonArray("vacant")))
          || !sorted(usedIds).equals(sorted(v.getJsonObject("gpus").getJsonArray("used")))) {
        return "GPU lists of " + w.getString("id");
      }
      if (!w.getJsonObject("cpus").equals(v.getJsonObject("cpus"))) {
        return "CPUs of " + w.getString("id");
      }
      // the host's cores, not what the worker lends: this test runs on the workers' host
      if (v.getInteger("hostCpus") != Runtime.getRuntime().availableProcessors()) {
        return "hostCpus of " + w.getString("id") + ": " + v.getInteger("hostCpus");
      }
      if (!strings(w.getJsonArray("jobs")).equals(strings(v.getJsonArray("jobs")))) {
        return "jobs of " + w.getString("id");
      }
      for (Object d : v.getJsonArray("gpuDevices")) {
        JsonObject dev = (JsonObject) d;
        String expected = holderOf.get(w.getString("id") + "/" + dev.getInteger("index"));
        boolean isUsed = usedIds.contains(dev.getInteger("index"));
        if (!(isUsed ? "used" : "vacant").equals(dev.getString("state")) || !java.util.Objects.equals(expected, dev.getString("jobId"))) {
          return "GPU " + dev.getInteger("index") + " of " + w.getString("id") + " should be held by " + expected;
        }
      }
      if (v.getJsonArray("gpuDevices").size() != vacant.size() + usedIds.size()) {
        return "GPU devices of " + w.getString("id");
      }
    }
    JsonObject totals = view.getJsonObject("totals");
    if (totals.getJsonObject("gpus").getInteger("used") != used
        || totals.getInteger("jobs") != snapshot.getJsonArray("jobs").size()
        || totals.getInteger("waiting") != snapshot.getInteger("waiting")) {
      return "totals " + totals.encode();
    }
    return null;
  }

  private static List<Integer> sorted(JsonArray ids) {
    List<Integer> l = new ArrayList<>();
    ids.forEach(i -> l.add((Integer) i));
    l.sort(null);
    return l;
  }

  /** Polls a job's log (a job id, or an id with a path and query) until it contains {@code text}. */
  private JsonObject awaitLog(String jobAndQuery, String text) throws Exception {
    String path = jobAndQuery.contains("/") ? "/api/jobs/" + jobAndQuery : "/api/jobs/" + jobAndQuery + "/log";
    return Await.until(path + " showing '" + text + "'", Duration.ofSeconds(10), () -> http.json(path),
        log -> log.getString("log", "").contains(text));
  }

  private static TreeSet<String> strings(JsonArray a) {
    TreeSet<String> out = new TreeSet<>();
    a.forEach(o -> out.add(String.valueOf(o)));
    return out;
  }
}
