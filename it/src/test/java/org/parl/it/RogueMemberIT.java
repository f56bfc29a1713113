package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.cluster.Member;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.PfxOptions;
import io.vertx.core.spi.cluster.NodeInfo;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.cluster.Addresses;
import org.parl.cluster.HazelcastSettings;
import org.parl.control.ControlBus;
import org.parl.control.ControlCodec;
import org.parl.control.ControlReply.JobStatus;
import org.parl.control.JobCenterRequest.Allocate;
import org.parl.control.JobCenterRequest.EndJob;
import org.parl.control.JobCenterRequest.GetSnapshot;
import org.parl.control.JobCenterRequest.RegisterWorker;
import org.parl.control.JobCenterRequest.UnregisterWorker;
import org.parl.control.Request;
import org.parl.control.WorkerRequest.KillJob;
import org.parl.control.WorkerRequest.ReadStatus;
import org.parl.internal.security.ClusterToken;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;
import org.parl.tls.ClusterKeys;

/**
 * docs/contract.md §9 between nodes: a stranger that learnt the Hazelcast cluster name (here: read from the
 * cluster map by a legitimate member) joins Hazelcast, but without the token its event bus holds
 * another certificate. Nothing it sends is acted upon, nothing sent in the cluster reaches it, its
 * writes to the cluster maps change no decision, and its "master" role attribute means nothing when it
 * leaves. Throughout, every live job process sees exactly the GPUs the JobCenter gave it, and no two
 * share one.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RogueMemberIT {

  private static final long SEND_TIMEOUT_MS = 4_000;
  private static final ClusterToken STRANGER = ClusterToken.of("f".repeat(64), "RogueMemberIT");

  private TestCluster cluster;
  private TestMember member;
  private ParlProcess worker2;
  private String w2;
  private ClusterKeys keys;
  private final Map<String, Long> pids = new HashMap<>();
  private final List<RemoteActor<Counter>> actors = new ArrayList<>();
  private JsonObject before;

  /** A GPU cluster whose every GPU is held by a live job of this test. */
  @BeforeAll
  void start() throws Exception {
    cluster = TestCluster.start(4);
    ParlProcess[] handle = new ParlProcess[1];
    w2 = cluster.addWorker(handle, "--nvidia-smi", cluster.fakeSmi(2).toString());
    worker2 = handle[0];
    member = cluster.member();
    keys = ClusterKeys.derive(ClusterToken.of(cluster.token(), "RogueMemberIT"));
    ParlClient client = cluster.connect();
    for (int i = 0; i < 3; i++) { // best fit: w2 {0,1}, then the local worker's {0,1} and {2,3}
      RemoteActor<Counter> a = client.actor(Counter.class, CounterImpl.class).gpus(2).createAsync().await(60, TimeUnit.SECONDS);
      actors.add(a);
      pids.put(a.jobId(), (long) a.call(Counter::pid).await(30, TimeUnit.SECONDS));
    }
    before = cluster.awaitSnapshot(s -> s.getJsonArray("jobs").size() == 3, Duration.ofSeconds(20));
    assertGpusExclusive();
  }

  @AfterAll
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void theEventBusRefusesPlainTextAndStrangersCertificates() throws Exception {
    Map<String, NodeInfo> nodes = legitimateNodes();
    assertEquals(Set.of("master", "worker"), nodes.keySet());
    ClusterKeys stranger = ClusterKeys.derive(STRANGER);
    for (Map.Entry<String, NodeInfo> n : nodes.entrySet()) {
      NodeInfo at = n.getValue();
      assertTrue(plainTextIsDropped(at), n.getKey() + ": a plain-text peer got an answer");
      assertFalse(tlsPeerStaysConnected(at, stranger.keyCert()), n.getKey() + ": a stranger's certificate was accepted");
      assertFalse(tlsPeerStaysConnected(at, null), n.getKey() + ": a peer without a certificate was accepted");
      assertTrue(tlsPeerStaysConnected(at, keys.keyCert()), n.getKey() + ": the cluster's own certificate was refused");
    }
  }

  @Test
  void aStrangersMessagesAreNotActedUpon() throws Exception {
    JsonObject jobOnW2 = job(w2);
    Vertx rogue = joinAsStranger(member, keys);
    try {
      String rogueNode = ((VertxInternal) rogue).clusterManager().getNodeId();
      List<Future<?>> sent = List.of(
          request(rogue, Addresses.JOB_CENTER, new GetSnapshot()),
          request(rogue, Addresses.JOB_CENTER, new EndJob(jobOnW2.getString("jobId"), w2, "forged", false)),
          request(rogue, Addresses.JOB_CENTER, new RegisterWorker("w-rogue", rogueNode, "rogue", "127.0.0.1", 2,
              List.of(0, 1), List.of())),
          request(rogue, Addresses.JOB_CENTER, new UnregisterWorker(w2, rogueNode)),
          request(rogue, Addresses.JOB_CENTER, new Allocate("c-rogue", 0, 1, 0, 1_000, null, null)),
          request(rogue, Addresses.worker(w2), new KillJob(jobOnW2.getString("jobId"), "forged")),
          request(rogue, Addresses.job(jobOnW2.getString("jobId")), new KillJob(jobOnW2.getString("jobId"), "forged")));
      for (Future<?> f : sent) {
        System.out.println("a stranger's request: " + failure(f));
      }
      assertPoolAsBefore();
      // had the forged EndJob freed w2's GPUs, this request would get them while the job still runs
      ReplyException none = assertInstanceOf(ReplyException.class,
          failure(member.jobCenter(new Allocate("it-rogue", 0, 1, 0, 1_500, null, null), 15_000)));
      assertEquals(503, none.failureCode(), none.getMessage());
    } finally {
      leave(rogue);
    }
    assertNothingChanged();
  }

  /** A job's own verticle answers a member of the cluster about its job, over the cluster, and about nothing else. */
  @Test
  void aJobsVerticleAnswersAboutItsJobOnly() throws Exception {
    String jobId = job(w2).getString("jobId");
    String at = Addresses.job(jobId);
    JobStatus status = ControlBus.request(member.node().vertx(), at, new ReadStatus(jobId), 15_000).await(30, TimeUnit.SECONDS);
    assertEquals(jobId, status.job().job().jobId());
    assertEquals("assigned", status.job().state());
    ReplyException other = assertInstanceOf(ReplyException.class, failure(member.request(at, new KillJob("job-999999", "forged"),
        15_000)));
    assertEquals(400, other.failureCode(), other.getMessage());
    ReplyException bad = assertInstanceOf(ReplyException.class, failure(member.request(at,
        TestMember.Garbage.json("{\"type\":\"ReadLog\",\"jobId\":\"" + jobId + "\",\"lines\":0}"), 15_000)));
    assertEquals(400, bad.failureCode(), bad.getMessage());
    assertNothingChanged();
  }

  @Test
  void aStrangersConsumerReceivesNothing() throws Exception {
    Vertx rogue = joinAsStranger(member, keys);
    AtomicInteger received = new AtomicInteger();
    try {
      var consumers = List.of(
          rogue.eventBus().consumer(Addresses.JOB_CENTER, m -> received.incrementAndGet()),
          rogue.eventBus().consumer(Addresses.worker(w2), m -> received.incrementAndGet()));
      for (var c : consumers) {
        c.completion().await(10, TimeUnit.SECONDS);
      }
      int answered = 0;
      for (int i = 0; i < 6; i++) { // the event bus takes turns between the JobCenter and the stranger's consumer
        answered += member.jobCenter(new GetSnapshot(), SEND_TIMEOUT_MS).map(x -> 1).otherwise(0).await(15, TimeUnit.SECONDS);
      }
      assertTrue(answered > 0, "the JobCenter kept answering");
      for (var c : consumers) {
        c.unregister().await(10, TimeUnit.SECONDS);
      }
    } finally {
      leave(rogue);
    }
    assertEquals(0, received.get(), "messages sent in the cluster reached the stranger");
    assertNothingChanged();
  }

  @Test
  void aStrangersMapWritesChangeNoDecision() throws Exception {
    Vertx rogue = joinAsStranger(member, keys);
    var workers = ((HazelcastClusterManager) ((VertxInternal) rogue).clusterManager()).getHazelcastInstance()
        .<String, String>getMap(Addresses.WORKERS_MAP);
    String real = workers.get(w2);
    try {
      workers.put("w-fake", new JsonObject().put("id", "w-fake").put("worker_vacant_gpus", new JsonArray(List.of(0, 1, 2, 3)))
          .put("worker_used_gpus", new JsonArray()).encode());
      workers.put(w2, new JsonObject(real).put("worker_vacant_gpus", new JsonArray(List.of(0, 1)))
          .put("worker_used_gpus", new JsonArray()).encode());
      ReplyException none = assertInstanceOf(ReplyException.class,
          failure(member.jobCenter(new Allocate("it-rogue", 0, 1, 0, 1_500, null, null), 15_000)));
      assertEquals(503, none.failureCode(), "the JobCenter decides from its own state: " + none.getMessage());
    } finally {
      workers.remove("w-fake");
      workers.put(w2, real);
      leave(rogue);
    }
    assertNothingChanged();
  }

  /**
   * The records nodes act on are signed with the token: a stranger that rewrites the cluster's
   * description (turning on {@code encryptData} of a plain cluster, so that the job data ports a new
   * worker opens would refuse every client) changes nothing; the worker ignores the record with one
   * log line and its actors answer.
   */
  @Test
  void aStrangersRewrittenClusterRecordIsIgnored() throws Exception {
    try (TestCluster small = TestCluster.start(0, "--no-local-worker")) {
      TestMember legit = small.member();
      Vertx rogue = joinAsStranger(legit, ClusterKeys.derive(ClusterToken.of(small.token(), "RogueMemberIT")));
      try {
        var clusterMap = ((HazelcastClusterManager) ((VertxInternal) rogue).clusterManager()).getHazelcastInstance()
            .<String, String>getMap(Addresses.CLUSTER_MAP);
        String real = clusterMap.get(Addresses.CLUSTER_KEY);
        assertTrue(real.contains("\"encryptData\":false"), real);
        clusterMap.put(Addresses.CLUSTER_KEY, real.replace("\"encryptData\":false", "\"encryptData\":true"));
        ParlProcess[] w = new ParlProcess[1];
        small.addWorker(w, "--cpus", "1");
        w[0].awaitLine("ignored record 'cluster' of map parl.cluster: it is not signed with the cluster token",
            TestCluster.START);
        w[0].awaitLine("job data ports authenticate each client without TLS", TestCluster.START);
        try (ParlClient client = small.connect();
             RemoteActor<Counter> a = client.actor(Counter.class, CounterImpl.class).createAsync().await(60, TimeUnit.SECONDS)) {
          assertEquals(3, a.call(c -> c.add(3)).await(30, TimeUnit.SECONDS), "the worker's data port is as the master said");
        }
      } finally {
        leave(legit, rogue);
      }
    }
  }

  /**
   * In a cluster of its own, since its master dies at the end: a stranger announcing the role
   * "master" leaves, then the real master is killed. Membership events reach each node in order, so
   * the worker and the monitor, which name the member whose departure stops them, prove that they
   * let the stranger go by naming the real master.
   */
  @Test
  void onlyTheRealMastersDepartureStopsWorkersAndMonitors() throws Exception {
    try (TestCluster small = TestCluster.start(0, "--no-local-worker")) {
      ParlProcess[] w = new ParlProcess[1];
      String workerId = small.addWorker(w, "--cpus", "1");
      try (ParlProcess monitor = ParlProcess.start(ParlProcess.env(small.home), "monitor", "--address", small.address)) {
        monitor.awaitLine("parl monitor ready", TestCluster.START);
        TestMember legit = small.member();
        String masterId = legit.info().masterMemberId();
        Vertx rogue = joinAsStranger(legit, ClusterKeys.derive(ClusterToken.of(small.token(), "RogueMemberIT")));
        String rogueId = memberId(rogue);
        assertEquals(2, legit.node().hazelcast().getCluster().getMembers().stream()
            .filter(m -> "master".equals(m.getAttribute(Addresses.ROLE_ATTRIBUTE))).count(), "two members say 'master'");
        leave(legit, rogue);
        small.master.kill();
        assertEquals(1, w[0].awaitExit(Duration.ofSeconds(30)), w[0].output());
        assertEquals(1, monitor.awaitExit(Duration.ofSeconds(30)), monitor.output());
        String said = "(member " + masterId + ") left the cluster";
        assertTrue(w[0].output().contains(said + "; worker " + workerId + " stops"), w[0].output());
        assertTrue(monitor.output().contains(said + "; the monitor stops"), monitor.output());
        assertFalse(w[0].output().contains(rogueId) || monitor.output().contains(rogueId), "the stranger's departure counted");
      }
    }
  }

  /**
   * The stranger: a Hazelcast lite member with the right cluster name (read from the cluster map
   * through a legitimate member) and the role "master", whose event bus holds another token's keys.
   * It trusts the cluster's certificate too (public: every TLS handshake shows it), so that only the
   * cluster refusing its certificate, and not trusting it, stops its traffic.
   */
  private static Vertx joinAsStranger(TestMember through, ClusterKeys cluster) throws Exception {
    String clusterName = through.map(Addresses.CLUSTER_MAP).get(Addresses.CLUSTER_KEY).getString("clusterName");
    ClusterKeys own = ClusterKeys.derive(STRANGER);
    HazelcastClusterManager manager = new HazelcastClusterManager(
        HazelcastSettings.build(null, clusterName, "127.0.0.1", through.info().hazelcast(), "master", true));
    EventBusOptions bus = new EventBusOptions().setHost("127.0.0.1").setPort(0).setClusterPublicHost("127.0.0.1")
        .setSsl(true).setClientAuth(ClientAuth.REQUIRED).setKeyCertOptions(own.keyCert())
        .setTrustOptions(trustBoth(own, cluster)).setTrustAll(false);
    Vertx v = Vertx.builder().with(new VertxOptions().setEventBusOptions(bus)).withClusterManager(manager)
        .buildClustered().await(60, TimeUnit.SECONDS);
    ControlCodec.register(v.eventBus());
    return v;
  }

  private static String memberId(Vertx v) {
    return ((HazelcastClusterManager) ((VertxInternal) v).clusterManager()).getHazelcastInstance().getCluster()
        .getLocalMember().getUuid().toString();
  }

  private void leave(Vertx rogue) throws Exception {
    leave(member, rogue);
  }

  /** The stranger leaves; done when {@code observer} no longer lists it. */
  private static void leave(TestMember observer, Vertx rogue) throws Exception {
    String id = memberId(rogue);
    rogue.close().await(30, TimeUnit.SECONDS);
    Await.until("the stranger leaving", Duration.ofSeconds(20), () -> observer.node().hazelcast().getCluster().getMembers()
        .stream().noneMatch(m -> m.getUuid().toString().equals(id)));
  }

  private static PfxOptions trustBoth(ClusterKeys a, ClusterKeys b) throws Exception {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    ks.load(null, null);
    ks.setCertificateEntry("a", a.certificate());
    ks.setCertificateEntry("b", b.certificate());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ks.store(out, "rogue".toCharArray());
    return new PfxOptions().setValue(Buffer.buffer(out.toByteArray())).setPassword("rogue");
  }

  private static Future<?> request(Vertx from, String address, Request<?> request) {
    return ControlBus.request(from, address, request, SEND_TIMEOUT_MS);
  }

  /** The event-bus servers of the other members (the master and the second worker), by role. */
  private Map<String, NodeInfo> legitimateNodes() throws Exception {
    var manager = ((VertxInternal) member.node().vertx()).clusterManager();
    Map<String, NodeInfo> nodes = new HashMap<>();
    for (Member m : member.node().hazelcast().getCluster().getMembers()) {
      String nodeId = m.getAttribute(Addresses.NODE_ID_ATTRIBUTE);
      if (nodeId == null || nodeId.equals(member.node().nodeId())) {
        continue;
      }
      Promise<NodeInfo> info = Promise.promise();
      manager.getNodeInfo(nodeId, info);
      nodes.put(m.getAttribute(Addresses.ROLE_ATTRIBUTE), info.future().await(10, TimeUnit.SECONDS));
    }
    return nodes;
  }

  /** Writes an event-bus-like frame in plain text: true when the server closes without a TLS-free answer. */
  private static boolean plainTextIsDropped(NodeInfo at) throws Exception {
    try (Socket s = new Socket(at.host(), at.port())) {
      s.setSoTimeout(10_000);
      byte[] json = new JsonObject().put("type", "GetSnapshot").encode().getBytes(StandardCharsets.UTF_8);
      s.getOutputStream().write(Buffer.buffer().appendInt(json.length + 4).appendBytes(json).getBytes());
      s.getOutputStream().flush();
      InputStream in = s.getInputStream();
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      try {
        for (int b = in.read(); b >= 0; b = in.read()) {
          got.write(b);
        }
      } catch (java.net.SocketException e) {
        // reset by the server: dropped too
      }
      byte[] answer = got.toByteArray();
      // nothing, or a TLS alert record (content type 21): never an event-bus frame
      return answer.length == 0 || answer[0] == 21;
    }
  }

  /**
   * Connects with TLS, trusting the cluster's certificate and presenting {@code cert} (or none): true
   * when the connection is still open two seconds later (TLS 1.3 completes the client's side of the
   * handshake before the server has checked the client's certificate; a refusal then closes it).
   */
  private boolean tlsPeerStaysConnected(NodeInfo at, KeyCertOptions cert) throws Exception {
    Vertx v = member.node().vertx();
    NetClientOptions options = new NetClientOptions().setSsl(true).setTrustOptions(keys.trust())
        .setHostnameVerificationAlgorithm("").setConnectTimeout(5_000);
    if (cert != null) {
      options.setKeyCertOptions(cert);
    }
    var client = v.createNetClient(options);
    try {
      // the handlers are set on the event loop as the connection completes, so that no close is missed
      return client.connect(at.port(), at.host()).compose(socket -> {
        Promise<Boolean> open = Promise.promise();
        socket.closeHandler(x -> open.tryComplete(false));
        v.setTimer(2_000, t -> {
          if (open.tryComplete(true)) {
            socket.close();
          }
        });
        return open.future();
      }).otherwise(false).await(15, TimeUnit.SECONDS);
    } finally {
      client.close();
    }
  }

  private JsonObject job(String workerId) throws Exception {
    for (Object o : member.snapshot().getJsonArray("jobs")) {
      JsonObject j = (JsonObject) o;
      if (workerId.equals(j.getString("workerId"))) {
        return j;
      }
    }
    throw new AssertionError("no job on " + workerId);
  }

  /** After a stranger came and went: the pool, the jobs, the processes and their GPUs as they were. */
  private void assertNothingChanged() throws Exception {
    assertPoolAsBefore();
    assertTrue(worker2.isAlive(), "the worker stopped: " + worker2.output());
    assertTrue(cluster.master.isAlive(), "the master stopped: " + cluster.master.output());
    assertActorsAnswer();
    assertGpusExclusive();
  }

  private void assertPoolAsBefore() throws Exception {
    JsonObject now = member.snapshot();
    assertEquals("ok", now.getString("invariant"));
    assertEquals(before.getJsonArray("workers"), now.getJsonArray("workers"), "the pool changed");
    assertEquals(before.getJsonArray("jobs"), now.getJsonArray("jobs"), "the jobs changed");
    assertEquals(0, now.getInteger("waiting"));
  }

  private void assertActorsAnswer() throws Exception {
    for (RemoteActor<Counter> a : actors) {
      assertEquals(pids.get(a.jobId()).intValue(), a.call(Counter::pid).await(30, TimeUnit.SECONDS).intValue());
    }
  }

  /**
   * For every job the JobCenter lists: its process lives, its CUDA_VISIBLE_DEVICES are the GPUs the
   * JobCenter gave it, and no GPU of a worker is seen by two live jobs.
   */
  private void assertGpusExclusive() throws Exception {
    Set<String> seen = new HashSet<>();
    for (Object o : member.snapshot().getJsonArray("jobs")) {
      JsonObject job = (JsonObject) o;
      Long pid = pids.get(job.getString("jobId"));
      assertNotNull(pid, "a job this test did not create: " + job);
      String visible = environ(pid).get("CUDA_VISIBLE_DEVICES");
      List<String> expected = job.getJsonArray("gpus").stream().map(String::valueOf).toList();
      assertEquals(String.join(",", expected), visible, "job " + job.getString("jobId") + " (pid " + pid + ")");
      for (String gpu : visible.split(",")) {
        assertTrue(seen.add(job.getString("workerId") + "/" + gpu), "GPU " + gpu + " of " + job.getString("workerId")
            + " is seen by two live jobs");
      }
    }
  }

  private static Map<String, String> environ(long pid) throws Exception {
    Map<String, String> env = new HashMap<>();
    for (String entry : new String(Files.readAllBytes(Path.of("/proc", String.valueOf(pid), "environ")),
        StandardCharsets.UTF_8).split("\0")) {
      int eq = entry.indexOf('=');
      if (eq > 0) {
        env.put(entry.substring(0, eq), entry.substring(eq + 1));
      }
    }
    return env;
  }

  /** How a future failed; every future here has its own timeout, well within the wait. */
  private static Throwable failure(Future<?> f) throws InterruptedException {
    Object result;
    try {
      result = f.await(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("no outcome within 30 s", e);
    } catch (Exception e) {
      return e;
    }
    throw new AssertionError("expected a failure, got " + result);
  }
}
