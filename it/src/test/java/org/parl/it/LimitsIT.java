package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.ActorLostException;
import org.parl.ConnectOptions;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.wire.Hashes;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;
import org.parl.it.actors.Printer;
import org.parl.it.actors.PrinterImpl;
import org.parl.monitor.MonitorHttp;

/**
 * docs/contract.md §8, a peer that is slow, silent or greedy costs bounded memory and never blocks others: a
 * client that does not read its replies is disconnected and the master's memory stays put; peers
 * that hold unterminated lines are closed; the per-address connection cap refuses in words; through
 * all of it a normal client keeps creating and calling actors. Disk: a job's log is rotated at its
 * cap while the job runs on, and the shipped-code cache evicts above its cap and ships again.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LimitsIT {

  private static final Duration LONG = Duration.ofSeconds(90);
  /** A small log cap for this cluster's jobs: 1 MiB. */
  private static final long LOG_CAP = 1 << 20;
  /** A small shipped-code cache: 2 MiB, less than the two 1.2 MiB files the cache test ships. */
  private static final long CACHE_CAP = 2 << 20;
  private TestCluster cluster;
  private ClusterToken token;
  private MonitorHttp monitor;
  private Map<String, Double> lastMetrics;
  private long lastMetricsAt;

  @BeforeAll
  void start() throws Exception {
    Path limits = Files.createTempFile("parl-limits", ".properties");
    Files.writeString(limits, "jobs.logMaxBytes=" + LOG_CAP + "\njobs.codeCacheMaxBytes=" + CACHE_CAP + "\n");
    cluster = TestCluster.start(Map.of("PARL_LIMITS_CONFIG", limits.toString()), 0, "--cpus", "2");
    token = ClusterToken.find(cluster.tokenFile());
    Matcher link = cluster.master.awaitLine("monitor: (https://[^/\\s]+)/login", TestCluster.START);
    monitor = new MonitorHttp(link.group(1), cluster.token());
  }

  @AfterAll
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** The master's resident memory in KiB (Linux). */
  private long masterRssKib() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(cluster.master.pid()), "status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("\\D", ""));
      }
    }
    throw new AssertionError("no VmRSS for the master");
  }

  /** Every byte from one of the holders until the gateway closes it (its challenge, maybe a refusal). */
  private static boolean closedByGateway(GatewayPeer p) throws IOException {
    while (p.readLine() != null) {
      // the challenge, then a refusal or nothing
    }
    return true;
  }

  /** A normal client's round trip: create an actor, call it, stop it. */
  private static void normalWork(ParlClient parl) {
    try (var a = parl.actor(Counter.class, CounterImpl.class).createAsync().await()) {
      assertEquals(3, a.call(c -> c.add(3)).await());
    }
  }

  @Test
  void aClientThatDoesNotReadIsDisconnectedAndTheMasterStaysSmall() throws Exception {
    ParlClient parl = cluster.connect();
    normalWork(parl);
    long before = masterRssKib();
    GatewayPeer flooder = GatewayPeer.authenticated(cluster.address, token);
    flooder.send("{\"type\":\"ClientHello\",\"id\":1,\"program\":\"flood\",\"hostname\":\"h\",\"pid\":1}");
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      many.append(i % 10 == 0 ? "{\"type\":\"StatusHello\",\"id\":" : "{\"type\":\"Ping\",\"id\":").append(i + 2).append("}\n");
    }
    byte[] batch = many.toString().getBytes(StandardCharsets.UTF_8);
    CompletableFuture<Long> sent = CompletableFuture.supplyAsync(() -> {
      long n = 0;
      try {
        OutputStream out = flooder.socket().getOutputStream();
        while (n < (4L << 30)) {
          out.write(batch);
          n += batch.length;
        }
      } catch (IOException e) {
        return n; // disconnected
      }
      return n;
    });
    long[] peak = {before};
    Await.until("the master disconnects the client that does not read", LONG, () -> {
      peak[0] = Math.max(peak[0], masterRssKib());
      if (sent.isDone()) {
        return true;
      }
      normalWork(parl);
      return false;
    });
    flooder.close();
    System.out.printf("LimitsIT: master RSS %d MiB before, peak %d MiB while flooded (%d MiB sent)%n",
        before >> 10, peak[0] >> 10, sent.get() >> 20);
    assertTrue(peak[0] - before < 300 << 10, "the master grew from " + (before >> 10) + " to " + (peak[0] >> 10) + " MiB");
    Await.until("one log line says why", LONG, () -> cluster.master.output().contains("does not read what is sent to it"));
    normalWork(parl);
  }

  @Test
  void unterminatedLinesAreBoundedAndClosed() throws Exception {
    ParlClient parl = cluster.connect();
    List<GatewayPeer> holders = new ArrayList<>();
    byte[] small = new byte[4000]; // just under the limit before authentication
    Arrays.fill(small, (byte) 'x');
    byte[] large = new byte[900_000]; // just under the limit after it
    Arrays.fill(large, (byte) 'x');
    try {
      for (int i = 0; i < 40; i++) {
        GatewayPeer p = new GatewayPeer(cluster.address);
        holders.add(p);
        p.write(small);
      }
      for (int i = 0; i < 10; i++) {
        GatewayPeer p = GatewayPeer.authenticated(cluster.address, token);
        holders.add(p);
        p.write(large);
      }
      normalWork(parl);
      for (GatewayPeer p : holders) {
        Await.until("the gateway closes a connection that holds an unterminated line", LONG, () -> closedByGateway(p));
      }
      normalWork(parl);
    } finally {
      for (GatewayPeer p : holders) {
        p.close();
      }
    }
  }

  @Test
  void thePerAddressCapRefusesInWords() throws Exception {
    ParlClient parl = cluster.connect();
    List<GatewayPeer> peers = new ArrayList<>();
    try {
      String refusal = connectUntilRefused(peers);
      // the other clients this class keeps open count too: the 65th connection from this address is refused
      assertTrue(refusal.contains("too many connections from 127.0.0.1: 64 are open and the cap is 64")
          && refusal.contains("gateway.maxConnectionsPerAddress in config/parl-limits.properties"), refusal);
      Await.until("one log line says so", LONG, () -> cluster.master.output().contains("gateway refused a connection from 127.0.0.1"));
    } finally {
      for (GatewayPeer p : peers) {
        p.close();
      }
    }
    Await.until("a new connection is accepted once the others closed", LONG, () -> {
      try (GatewayPeer again = GatewayPeer.authenticated(cluster.address, token)) {
        return true;
      } catch (AssertionError e) {
        return false;
      }
    });
    normalWork(parl);
  }

  /** Opens connections from this address (kept in {@code peers}) until the gateway refuses one; its refusal. */
  private String connectUntilRefused(List<GatewayPeer> peers) throws Exception {
    String refusal = GatewayPeer.openUntilRefused(cluster.address, peers, 70);
    if (refusal == null) {
      throw new AssertionError("70 connections from one address were all accepted");
    }
    return refusal;
  }

  /**
   * The samples of {@code GET /metrics}, by name and labels; asked at most every 250 ms (the figures
   * change every 2 s), so that waiting for them does not load the master.
   */
  private Map<String, Double> metrics() throws Exception {
    if (lastMetrics != null && System.nanoTime() - lastMetricsAt < TimeUnit.MILLISECONDS.toNanos(250)) {
      return lastMetrics;
    }
    MonitorHttp.Reply r = monitor.get("/metrics");
    assertEquals(200, r.status(), r.body());
    Map<String, Double> m = new HashMap<>();
    for (String line : r.body().split("\n")) {
      if (!line.startsWith("#")) {
        int sp = line.lastIndexOf(' ');
        m.put(line.substring(0, sp), Double.parseDouble(line.substring(sp + 1)));
      }
    }
    lastMetrics = m;
    lastMetricsAt = System.nanoTime();
    return m;
  }

  /** The one sample of {@code name} (this cluster has one worker), or NaN (which no comparison accepts) when there is none. */
  private static double one(Map<String, Double> metrics, String name) {
    List<Double> v = metrics.entrySet().stream().filter(e -> e.getKey().equals(name) || e.getKey().startsWith(name + "{"))
        .map(Map.Entry::getValue).toList();
    assertTrue(v.size() <= 1, name + ": " + v);
    return v.isEmpty() ? Double.NaN : v.get(0);
  }

  /**
   * {@code /metrics} shows each capped resource's use next to its cap as in effect where it is
   * enforced, and the figures move: job logs grow when a job prints, a client's waiting creates
   * are counted, the gateway's connections from one address reach their cap and a refusal is counted.
   */
  @Test
  void metricsShowTheUseOfEachCap() throws Exception {
    ParlClient parl = cluster.connect();
    Map<String, Double> before = Await.until("the worker and the gateway publish their use", LONG, this::metrics,
        m -> !Double.isNaN(one(m, "parl_worker_job_logs_bytes")) && !Double.isNaN(one(m, "parl_gateway_connections")));
    assertEquals((double) LOG_CAP, one(before, "parl_worker_job_log_limit_bytes"), "the worker's cap, from its limits file");
    assertEquals((double) CACHE_CAP, one(before, "parl_worker_code_cache_limit_bytes"));
    assertEquals(64.0, one(before, "parl_gateway_connections_per_address_limit"));
    assertEquals(1000.0, one(before, "parl_pending_requests_per_client_limit"));
    assertTrue(one(before, "parl_gateway_connections") >= 1, "this test's client is connected");

    try (var printer = parl.actor(Printer.class, PrinterImpl.class).createAsync().await()) {
      assertEquals(256 * 1024L, printer.call(p -> p.print(256)).await());
      double logs = one(before, "parl_worker_job_logs_bytes");
      Await.until("the printed 256 KiB show in the worker's job logs", LONG, this::metrics,
          m -> one(m, "parl_worker_job_logs_bytes") >= logs + 256 * 1024 && one(m, "parl_worker_job_log_largest_bytes") >= 256 * 1024);
    }
    assertTrue(one(metrics(), "parl_worker_code_cache_bytes") > 0, "the client's classes were shipped to the cache");

    List<RemoteActor<Counter>> held = new ArrayList<>();
    try {
      for (int i = 0; i < 2; i++) { // the worker's 2 CPUs
        held.add(parl.actor(Counter.class, CounterImpl.class).createAsync().await());
      }
      Future<RemoteActor<Counter>> third = parl.actor(Counter.class, CounterImpl.class).createAsync();
      Await.until("one create of this client waits", LONG, this::metrics, m -> one(m, "parl_pending_requests_per_client_max") == 1.0);
      held.remove(0).close();
      held.add(third.await(60, TimeUnit.SECONDS));
      Await.until("no create waits", LONG, this::metrics, m -> one(m, "parl_pending_requests_per_client_max") == 0.0);
    } finally {
      for (RemoteActor<Counter> a : held) {
        a.close();
      }
    }

    // (a refusal is counted in CliIT, on a cluster whose per-address cap is small enough to reach at once)
    double open = one(metrics(), "parl_gateway_connections");
    List<GatewayPeer> peers = new ArrayList<>();
    try {
      for (int i = 0; i < 5; i++) {
        peers.add(GatewayPeer.authenticated(cluster.address, token));
      }
      Await.until("the 5 new connections are counted", LONG, this::metrics,
          m -> one(m, "parl_gateway_connections") >= open + 5 && one(m, "parl_gateway_connections_per_address_max") >= 5);
    } finally {
      for (GatewayPeer p : peers) {
        p.close();
      }
    }
    Await.until("the closed connections are no longer counted", LONG, this::metrics,
        m -> one(m, "parl_gateway_connections") <= open);
    assertFalse(Double.isNaN(one(metrics(), "parl_gateway_connections_refused_total")), "refusals are counted");
  }

  /** The message of the ActorLostException that {@code call} fails with. */
  private static String lostMessage(Future<?> call) {
    return assertThrows(ActorLostException.class, () -> call.await(60, TimeUnit.SECONDS)).getMessage();
  }

  /**
   * docs/contract.md §5: an actor stopped for going over {@code maxMemoryMb} gets a message that names the limit
   * only when its own code used the memory; one stopped for another reason (a payload its job cannot
   * hold, an exit of its own with the status the JVM uses for OutOfMemoryError, a kill) is told that instead.
   */
  @Test
  void theMemoryLimitIsNamedOnlyWhenTheActorsCodeUsedTheMemory() throws Exception {
    ParlClient parl = cluster.connect();
    try (var hog = parl.actor(Counter.class, CounterImpl.class).maxMemoryMb(128).createAsync().await()) {
      String why = lostMessage(hog.call(c -> c.allocate(400)));
      assertTrue(why.contains("maxMemoryMb=128"), why);
    }
    try (var small = parl.actor(Counter.class, CounterImpl.class).maxMemoryMb(128).createAsync().await()) {
      float[] big = new float[25 << 20]; // 100 MiB: more than the job's heap (80 MiB of its 128) can hold
      String why = lostMessage(small.call(c -> c.echo(big)));
      assertTrue(why.contains("payload of 100.0 MiB that the job's heap cannot hold"), why);
      assertFalse(why.contains("maxMemoryMb"), why);
    }
    try (var quitter = parl.actor(Counter.class, CounterImpl.class).maxMemoryMb(128).createAsync().await()) {
      String why = lostMessage(quitter.run(c -> c.exit(3)));
      assertTrue(why.contains("the job process exited with status 3"), why);
      assertFalse(why.contains("maxMemoryMb"), why);
    }
    try (var killed = parl.actor(Counter.class, CounterImpl.class).maxMemoryMb(128).createAsync().await()) {
      assertEquals(1, killed.call(c -> c.add(1)).await());
      ProcessHandle.of(killed.call(Counter::pid).await()).orElseThrow().destroyForcibly();
      String why = lostMessage(killed.call(c -> c.add(1)));
      assertTrue(why.contains("killed by signal 9"), why);
      assertFalse(why.contains("maxMemoryMb"), why);
    }
    normalWork(parl);
  }

  /** The rotated part of a job log under the cluster's home, once there is one. */
  private Path rotatedLog() throws IOException {
    try (Stream<Path> files = Files.walk(cluster.home)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".log.1")).findFirst().orElse(null);
    }
  }

  @Test
  void aJobThatPrintsPastTheLogCapKeepsRunningAndItsLogStaysUnderIt() throws Exception {
    ParlClient parl = cluster.connect();
    try (var printer = parl.actor(Printer.class, PrinterImpl.class).createAsync().await()) {
      long printed = 0;
      while (printed < 10 * LOG_CAP) {
        printed += printer.call(p -> p.print(512)).await();
      }
      Path rotated = Await.until("the job's log is rotated", LONG, this::rotatedLog, p -> p != null);
      Path live = rotated.resolveSibling(rotated.getFileName().toString().replace(".log.1", ".log"));
      Await.until("the live log is back under the cap", LONG, () -> Files.size(live) <= LOG_CAP);
      assertTrue(Files.size(rotated) <= LOG_CAP / 4, "the kept part is a quarter of the cap: " + Files.size(rotated));
      assertEquals(1024L, printer.call(p -> p.print(1)).await(), "the job still runs");
    }
  }

  /** A client that ships one text file to its jobs, distinct from any other. */
  private ParlClient clientWithFile(String name, String content) throws IOException {
    Path file = Path.of("target", "limits-it", name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
    return cluster.connect(new ConnectOptions().setDistributedFiles(List.of(file.toString())));
  }

  /** The blob of {@code content} in the host's shipped-code cache, or null. */
  private Path blob(String content) throws IOException {
    byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
    String name = Hashes.sha256(bytes, 0, bytes.length) + ".jar";
    try (Stream<Path> files = Files.walk(cluster.home)) {
      return files.filter(p -> p.getFileName().toString().equals(name)).findFirst().orElse(null);
    }
  }

  @Test
  void theCodeCacheEvictsAboveItsCapAndShipsAgain() throws Exception {
    String first = "first ".repeat(200_000);
    String second = "second ".repeat(180_000);
    ParlClient a = clientWithFile("first.txt", first);
    ParlClient b = clientWithFile("second.txt", second);
    String path = Path.of("target", "limits-it", "first.txt").toString();
    try (var one = a.actor(Counter.class, CounterImpl.class).createAsync().await()) {
      assertEquals(first, one.call(c -> c.readFile(path)).await());
    }
    Path firstBlob = Await.until("the first file is in the cache", LONG, () -> blob(first), p -> p != null);
    Await.until("the first file is no longer in use (10 s)", LONG,
        () -> !Files.exists(firstBlob) || System.currentTimeMillis() - Files.getLastModifiedTime(firstBlob).toMillis() > 11_000);
    try (var two = b.actor(Counter.class, CounterImpl.class).createAsync().await()) {
      assertEquals(second.length(), two.call(c -> c.readFile(Path.of("target", "limits-it", "second.txt").toString())).await().length());
    }
    assertTrue(blob(first) == null, "above the cap, the least recently used file was evicted");
    try (var again = a.actor(Counter.class, CounterImpl.class).createAsync().await()) {
      assertEquals(first, again.call(c -> c.readFile(path)).await(), "the evicted file was shipped again");
    }
    assertNotNull(blob(first));
  }
}
