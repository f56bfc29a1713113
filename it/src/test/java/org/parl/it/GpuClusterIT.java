package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;
import org.parl.cluster.Addresses;
import org.parl.control.JobCenterRequest.Allocate;
import org.parl.control.JobCenterRequest.CancelClient;
import org.parl.control.JobCenterRequest.EndJob;
import org.parl.control.JobCenterRequest.GetSnapshot;
import org.parl.control.JobCenterRequest.RegisterWorker;
import org.parl.control.JobCenterRequest.UnregisterWorker;
import org.parl.control.WorkerRequest.KillJob;
import org.parl.control.WorkerRequest.Launch;
import org.parl.internal.wire.gateway.Job;
import org.parl.it.TestMember.Garbage;

/**
 * A GPU cluster of real processes on loopback: a master whose local worker has a fake 4-GPU
 * inventory and a second worker with a fake 2-GPU inventory. The test JVM joins as a lite member
 * and talks to the JobCenter and the workers over the event bus, in typed control messages and in
 * garbage. Each test starts from both workers wholly vacant, asks under its own client id, and gives
 * back whatever it still asks for or holds when it ends.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GpuClusterIT {

  private TestCluster cluster;
  private TestMember member;
  private String address;
  private String w4;
  private String w2;
  private ParlProcess worker2;
  private String clientId;

  @BeforeAll
  void startCluster() throws Exception {
    cluster = TestCluster.start(4);
    address = cluster.address;
    w4 = cluster.localWorker;
    ParlProcess[] handle = new ParlProcess[1];
    w2 = cluster.addWorker(handle, "--nvidia-smi", cluster.fakeSmi(2).toString());
    worker2 = handle[0];
    member = cluster.member();
  }

  @AfterAll
  void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** The state every test starts from: the two workers, wholly vacant, and nobody waiting. */
  @BeforeEach
  void awaitPoolWhole(TestInfo test) throws Exception {
    clientId = "it-" + test.getTestMethod().orElseThrow().getName();
    cluster.awaitSnapshot(s -> s.getJsonArray("jobs").isEmpty() && s.getInteger("waiting") == 0
        && workerIds(s).equals(Set.of(w4, w2)), Duration.ofSeconds(20));
    awaitWorkerRecord(w4, List.of(0, 1, 2, 3), List.of());
    awaitWorkerRecord(w2, List.of(0, 1), List.of());
  }

  /** Gives up what this test still asks for or holds (nothing, when it passed). */
  @AfterEach
  void giveBack() throws Exception {
    member.jobCenter(new CancelClient(clientId), 10_000).await(15, TimeUnit.SECONDS);
    for (Object o : member.snapshot().getJsonArray("jobs")) {
      JsonObject job = (JsonObject) o;
      if (clientId.equals(job.getString("clientId"))) {
        end(job);
      }
    }
  }

  @Test
  void requestsGetDistinctExistingGpuIds() throws Exception {
    JsonObject one = allocate(1, 10_000).await(20, TimeUnit.SECONDS);
    assertEquals(w2, one.getString("workerId"), "best fit: the 2-GPU worker holds a 1-GPU request");
    assertEquals(List.of(0), ids(one));
    JsonObject two = allocate(2, 10_000).await(20, TimeUnit.SECONDS);
    assertEquals(w4, two.getString("workerId"));
    assertEquals(List.of(0, 1), ids(two));
    Future<JsonObject> four = allocate(4, 30_000);
    cluster.awaitWaiting(1);
    assertFalse(four.isComplete(), "4 GPUs are not vacant anywhere yet");
    end(two);
    JsonObject granted = four.await(20, TimeUnit.SECONDS);
    assertEquals(w4, granted.getString("workerId"));
    assertEquals(List.of(0, 1, 2, 3), ids(granted));
    awaitWorkerRecord(w4, List.of(), List.of(0, 1, 2, 3));
    awaitWorkerRecord(w2, List.of(1), List.of(0));
    end(one);
    end(granted);
    assertPoolWhole();
  }

  @Test
  void waitingRequestsAreServedInArrivalOrder() throws Exception {
    JsonObject big = allocate(4, 10_000).await(20, TimeUnit.SECONDS);
    JsonObject small = allocate(2, 10_000).await(20, TimeUnit.SECONDS);
    List<String> served = Collections.synchronizedList(new ArrayList<>());
    Future<JsonObject> first = allocate(2, 30_000).onSuccess(j -> served.add("first"));
    cluster.awaitWaiting(1);
    Future<JsonObject> second = allocate(1, 30_000).onSuccess(j -> served.add("second"));
    cluster.awaitWaiting(2);
    assertEquals(List.of(), served);
    end(small);
    JsonObject a = first.await(20, TimeUnit.SECONDS);
    assertEquals(w2, a.getString("workerId"));
    // end(small) was answered after the queue was served: what still waits now waits for good
    assertEquals(1, member.snapshot().getInteger("waiting"), "the 1-GPU request still waits: nothing is vacant");
    assertEquals(List.of("first"), served, "the 1-GPU request still waits: nothing is vacant");
    end(big);
    JsonObject b = second.await(20, TimeUnit.SECONDS);
    assertEquals(List.of("first", "second"), served);
    assertEquals(w4, b.getString("workerId"));
    end(a);
    end(b);
    assertPoolWhole();
  }

  @Test
  void aRequestTimesOutWithTheReason() throws Exception {
    JsonObject big = allocate(4, 10_000).await(20, TimeUnit.SECONDS);
    long t0 = System.nanoTime();
    ReplyException e = failure(allocate(3, 700));
    long waitedMs = (System.nanoTime() - t0) / 1_000_000;
    assertEquals(503, e.failureCode());
    assertTrue(e.getMessage().contains("no worker had 3 vacant GPU(s) within 0.7 s"), e.getMessage());
    assertTrue(waitedMs >= 600, "it waited " + waitedMs + " ms");
    end(big);
    assertPoolWhole();
  }

  @Test
  void impossibleRequestsAreRefused() throws Exception {
    ReplyException cpuOnly = failure(member.jobCenter(new Allocate("t", 1, 0, 0, 1000, null, null), 10_000));
    assertEquals(409, cpuOnly.failureCode());
    assertTrue(cpuOnly.getMessage().contains("this is a GPU cluster and the actor asks for no GPUs"), cpuOnly.getMessage());
    ReplyException tooMany = failure(allocate(9, 1000));
    assertEquals(400, tooMany.failureCode());
    assertTrue(tooMany.getMessage().contains("at most 8 GPUs"), tooMany.getMessage());
    // a request cannot be built with a negative amount: a stranger's raw line is refused at decoding
    ReplyException negative = failure(member.request(Addresses.JOB_CENTER,
        Garbage.json("{\"type\":\"Allocate\",\"clientId\":\"t\"," + create("-2", "1000")), 10_000));
    assertEquals(400, negative.failureCode());
    assertTrue(negative.getMessage().contains("must not be negative"), negative.getMessage());
    assertPoolWhole();
  }

  @Test
  void aCpuWorkerIsRefused() throws Exception {
    try (ParlProcess cpuWorker = ParlProcess.start(ParlProcess.env(cluster.home), "worker", "--address", address, "--cpus", "2")) {
      assertEquals(1, cpuWorker.awaitExit(TestCluster.START));
      assertTrue(cpuWorker.output().contains("this is a GPU cluster, so a worker lends GPUs (--gpus), not CPUs (--cpus)"),
          cpuWorker.output());
    }
    ReplyException e = failure(member.jobCenter(registration("w-rogue", List.of()), 10_000));
    assertEquals(409, e.failureCode());
    assertTrue(e.getMessage().contains("this is a GPU cluster and worker w-rogue on rogue-host offers no GPUs"), e.getMessage());
    assertPoolWhole();
  }

  @Test
  void garbageMessagesGetErrorsAndChangeNothing() throws Exception {
    JsonObject held = allocate(1, 10_000).await(20, TimeUnit.SECONDS);
    JsonObject before = member.snapshot();
    String jobCenter = Addresses.JOB_CENTER;
    String worker = Addresses.worker(w2);
    String bad = "{\"type\":\"RegisterWorker\",\"nodeId\":\"n-rogue\",\"hostname\":\"rogue-host\",\"host\":\"127.0.0.1\","
        + "\"cpus\":2,";
    // {address, body, the failure code it must get}: 400 INVALID for what is malformed, the
    // JobCenter's own answer for well-formed requests that make no sense
    List<Object[]> garbage = List.of(
        new Object[] {jobCenter, new JsonObject(), 400},
        new Object[] {jobCenter, Garbage.json("{\"type\":\"Fly\"}"), 400},
        new Object[] {jobCenter, "not json", 400},
        new Object[] {jobCenter, Buffer.buffer(new byte[] {1, 2, 3}), 400},
        new Object[] {jobCenter, new JsonArray().add(1), 400},
        new Object[] {jobCenter, Garbage.json("{\"type\":\"Allocate\"}"), 400},
        new Object[] {jobCenter, Garbage.json("{\"type\":\"Allocate\",\"clientId\":5," + create("1", "10")), 400},
        new Object[] {jobCenter, Garbage.json("{\"type\":\"Allocate\",\"clientId\":\"x\"," + create("\"two\"", "10")), 400},
        new Object[] {jobCenter, Garbage.json("{\"type\":\"Allocate\",\"clientId\":\"x\"," + create("1", "-5")), 400},
        new Object[] {jobCenter, Garbage.json("{\"type\":\"Allocate\",\"clientId\":\"x\",\"create\":{\"type\":\"Kill\"}}"), 400},
        new Object[] {jobCenter, Garbage.json("{\"type\":\"Allocate\",\"clientId\":\"x\"," + create("0", "10")), 400},
        new Object[] {jobCenter, new EndJob("job-999999", w2, null, false), 404},
        new Object[] {jobCenter, new EndJob(held.getString("jobId"), "w-other", null, false), 404},
        new Object[] {jobCenter, new EndJob(held.getString("jobId"), w4, null, false), 404},
        new Object[] {jobCenter, Garbage.json("{\"type\":\"EndJob\",\"jobId\":\"" + held.getString("jobId") + "\"}"), 400},
        new Object[] {jobCenter, Garbage.json("{\"type\":\"EndJob\",\"jobId\":42}"), 400},
        new Object[] {jobCenter, Garbage.json("{\"type\":\"RegisterWorker\",\"workerId\":\"w-x\"}"), 400},
        new Object[] {jobCenter, Garbage.json(bad + "\"workerId\":\"w-dup\",\"gpus\":[0,0]}"), 400},
        new Object[] {jobCenter, Garbage.json(bad + "\"workerId\":\"w-neg\",\"gpus\":[-1]}"), 400},
        new Object[] {jobCenter, registration(w4, List.of(0)), 400},
        new Object[] {jobCenter, new RegisterWorker("w-ghost", "n-ghost", "rogue-host", "127.0.0.1", 2, List.of(0), List.of()), 400},
        new Object[] {jobCenter, new UnregisterWorker("w-nobody", "n-nobody"), 404},
        new Object[] {jobCenter, Garbage.json("{\"type\":\"Allocate\",\"clientId\":\"x\""), 400},
        new Object[] {jobCenter, new Garbage(new byte[] {0x7f, 0, 0, 0, '{', '}'}), 400},
        new Object[] {jobCenter, new KillJob("job-1", null), 400},
        new Object[] {worker, new GetSnapshot(), 400},
        new Object[] {worker, "kill everything", 400},
        new Object[] {worker, Garbage.json("{\"type\":\"ReadLog\",\"jobId\":\"job-1\",\"lines\":0}"), 400},
        new Object[] {worker, Garbage.json("{\"type\":\"Launch\",\"job\":{\"jobId\":\"job-x\",\"gpus\":[0,0]}}"), 400},
        new Object[] {worker, new Launch(new Job("job-x", "c-x", w2, "X", 0, List.of(7), 0, 0), "m-x"), 400},
        new Object[] {worker, new KillJob("job-999999", null), 404});
    for (Object[] g : garbage) {
      ReplyException e = failure(member.request((String) g[0], g[1], 10_000));
      assertEquals((int) g[2], e.failureCode(), g[1] + " to " + g[0] + " answered " + e.failureCode() + " " + e.getMessage());
      assertFalse(e.getMessage() == null || e.getMessage().isBlank());
      System.out.printf("%s -> %d %s%n", g[1], e.failureCode(), e.getMessage());
    }
    // messages without a reply address are dropped with a log line, and the nodes keep going
    for (Object[] g : garbage) {
      member.send((String) g[0], g[1]);
    }
    JsonObject after = member.snapshot();
    assertEquals("ok", after.getString("invariant"));
    assertEquals(before.getJsonArray("workers"), after.getJsonArray("workers"), "the pool is unchanged");
    assertEquals(before.getJsonArray("jobs"), after.getJsonArray("jobs"));
    assertTrue(worker2.isAlive(), "the worker lives on");
    end(held);
    assertPoolWhole();
  }

  @Test
  void aKilledWorkerLeavesThePoolAndTheMap() throws Exception {
    ParlProcess[] handle = new ParlProcess[1];
    String w3 = cluster.addWorker(handle, "--nvidia-smi", cluster.fakeSmi(3).toString());
    try (ParlProcess worker3 = handle[0]) {
      awaitWorkerRecord(w3, List.of(0, 1, 2), List.of());
      JsonObject onW3 = allocate(3, 10_000).await(20, TimeUnit.SECONDS);
      assertEquals(w3, onW3.getString("workerId"), "best fit: the 3-GPU worker holds a 3-GPU request");
      assertTrue(member.map(Addresses.WORKERS_MAP).containsKey(w3));
      long t0 = System.nanoTime();
      worker3.kill();
      Await.until("worker " + w3 + " leaving the map after SIGKILL", Duration.ofSeconds(15),
          () -> !member.map(Addresses.WORKERS_MAP).containsKey(w3));
      System.out.printf("killed worker gone from the map after %d ms%n", (System.nanoTime() - t0) / 1_000_000);
      JsonObject s = member.snapshot();
      assertEquals("ok", s.getString("invariant"));
      assertEquals(Set.of(w4, w2), workerIds(s));
      assertEquals(0, s.getJsonArray("jobs").size(), "the lost job holds nothing");
      // the jobs map is written apart from the workers map: wait for its own write
      Await.until("the lost job leaving the jobs map", Duration.ofSeconds(15),
          () -> !member.map(Addresses.JOBS_MAP).containsKey(onW3.getString("jobId")));
      assertEquals(List.of(0, 1, 2, 3), ids(member.map(Addresses.WORKERS_MAP).get(w4), "worker_vacant_gpus"));
      assertEquals(List.of(0, 1), ids(member.map(Addresses.WORKERS_MAP).get(w2), "worker_vacant_gpus"));
    }
  }

  /** A granted job, in its JSON form. */
  private Future<JsonObject> allocate(int gpus, long timeoutMs) {
    return member.jobCenter(new Allocate(clientId, 0, gpus, 0, timeoutMs, null, null), timeoutMs + 10_000)
        .map(granted -> TestMember.json(granted.launch().job()));
  }

  private void end(JsonObject job) throws Exception {
    member.jobCenter(new EndJob(job.getString("jobId"), job.getString("workerId"), null, false), 10_000).await(15, TimeUnit.SECONDS);
  }

  /** A registration from the test member's own node (a current member: the JobCenter judges the rest). */
  private RegisterWorker registration(String id, List<Integer> gpus) {
    return new RegisterWorker(id, member.node().nodeId(), "rogue-host", "127.0.0.1", 2, gpus, List.of());
  }

  private static ReplyException failure(Future<?> f) throws InterruptedException {
    try {
      f.await(30, TimeUnit.SECONDS);
    } catch (ReplyException e) {
      return e;
    } catch (Exception e) {
      throw new AssertionError("expected a reply failure, got " + e, e);
    }
    throw new AssertionError("expected a failure, got " + f.result());
  }

  private static List<Integer> ids(JsonObject job) {
    return ids(job, "gpus");
  }

  @SuppressWarnings("unchecked")
  private static List<Integer> ids(JsonObject o, String field) {
    return o.getJsonArray(field).getList();
  }

  private static Set<String> workerIds(JsonObject snapshot) {
    return snapshot.getJsonArray("workers").stream().map(w -> ((JsonObject) w).getString("id")).collect(Collectors.toSet());
  }

  private void awaitWorkerRecord(String workerId, List<Integer> vacant, List<Integer> used) throws Exception {
    Await.until("map record of " + workerId + " with vacant " + vacant + " and used " + used, Duration.ofSeconds(10),
        () -> member.map(Addresses.WORKERS_MAP).get(workerId),
        w -> w != null && ids(w, "worker_vacant_gpus").equals(vacant) && ids(w, "worker_used_gpus").equals(used));
  }

  private void assertPoolWhole() throws Exception {
    JsonObject s = member.snapshot();
    assertEquals("ok", s.getString("invariant"));
    assertEquals(0, s.getJsonArray("jobs").size());
    awaitWorkerRecord(w4, List.of(0, 1, 2, 3), List.of());
    awaitWorkerRecord(w2, List.of(0, 1), List.of());
  }

  /** The rest of an Allocate's JSON: the client's create asking for {@code gpus} GPUs for {@code timeoutMs}, as written. */
  private static String create(String gpus, String timeoutMs) {
    return "\"create\":{\"type\":\"Create\",\"id\":1,\"resources\":{\"gpus\":" + gpus + "},\"timeoutMs\":" + timeoutMs + "}}";
  }
}
