package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
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
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;
import org.parl.cluster.Addresses;

/**
 * A GPU cluster of real processes on loopback: a master whose local worker has a fake 4-GPU
 * inventory and a second worker with a fake 2-GPU inventory. The test JVM joins as a lite member
 * and talks to the JobCenter over the event bus. Each test starts from both workers wholly vacant,
 * asks under its own client id, and gives back whatever it still asks for or holds when it ends.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GpuClusterIT {

  private TestCluster cluster;
  private TestMember member;
  private String address;
  private String w4;
  private String w2;
  private String clientId;

  @BeforeAll
  void startCluster() throws Exception {
    cluster = TestCluster.start(4);
    address = cluster.address;
    w4 = cluster.localWorker;
    w2 = cluster.addWorker(new ParlProcess[1], "--nvidia-smi", cluster.fakeSmi(2).toString());
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
    member.jobCenter("cancel", new JsonObject().put("clientId", clientId), 10_000).await(15, TimeUnit.SECONDS);
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
    ReplyException cpuOnly = failure(member.jobCenter("allocate",
        new JsonObject().put("clientId", "t").put("cpus", 1).put("timeoutMs", 1000), 10_000));
    assertEquals(409, cpuOnly.failureCode());
    assertTrue(cpuOnly.getMessage().contains("this is a GPU cluster and the actor asks for no GPUs"), cpuOnly.getMessage());
    ReplyException tooMany = failure(allocate(9, 1000));
    assertEquals(400, tooMany.failureCode());
    assertTrue(tooMany.getMessage().contains("at most 8 GPUs"), tooMany.getMessage());
    ReplyException negative = failure(allocate(-2, 1000));
    assertEquals(400, negative.failureCode());
    assertPoolWhole();
  }

  @Test
  void aCpuWorkerIsRefused() throws Exception {
    try (ParlProcess cpuWorker = ParlProcess.start(ParlProcess.env(cluster.home), "worker", "--address", address, "--cpus", "2")) {
      assertEquals(1, cpuWorker.awaitExit(TestCluster.START));
      assertTrue(cpuWorker.output().contains("this is a GPU cluster, so a worker lends GPUs (--gpus), not CPUs (--cpus)"),
          cpuWorker.output());
    }
    ReplyException e = failure(member.jobCenter("register", registration("w-rogue", List.of()), 10_000));
    assertEquals(409, e.failureCode());
    assertTrue(e.getMessage().contains("this is a GPU cluster and worker w-rogue on rogue-host offers no GPUs"), e.getMessage());
    assertPoolWhole();
  }

  @Test
  @Order(6)
  void garbageMessagesGetErrorsAndChangeNothing() throws Exception {
    JsonObject held = allocate(1, 10_000).await(20, TimeUnit.SECONDS);
    JsonObject before = member.snapshot();
    List<Object[]> garbage = List.of(
        new Object[] {null, new JsonObject()},
        new Object[] {"fly", new JsonObject()},
        new Object[] {"allocate", "not json"},
        new Object[] {"allocate", Buffer.buffer(new byte[] {1, 2, 3})},
        new Object[] {"allocate", new JsonArray().add(1)},
        new Object[] {"allocate", new JsonObject()},
        new Object[] {"allocate", new JsonObject().put("clientId", 5).put("gpus", 1).put("timeoutMs", 10)},
        new Object[] {"allocate", new JsonObject().put("clientId", "x").put("gpus", "two").put("timeoutMs", 10)},
        new Object[] {"allocate", new JsonObject().put("clientId", "x").put("gpus", 1).put("timeoutMs", -5)},
        new Object[] {"allocate", new JsonObject().put("clientId", "x").put("gpus", 0).put("timeoutMs", 10)},
        new Object[] {"end", new JsonObject().put("jobId", "job-999999")},
        new Object[] {"end", new JsonObject().put("jobId", held.getString("jobId")).put("workerId", "w-other")},
        new Object[] {"end", new JsonObject().put("jobId", 42)},
        new Object[] {"register", new JsonObject().put("workerId", "w-x")},
        new Object[] {"register", registration("w-dup", List.of(0, 0))},
        new Object[] {"register", registration("w-neg", List.of(-1))},
        new Object[] {"register", registration(w4, List.of(0))},
        new Object[] {"unregister", new JsonObject().put("workerId", "w-nobody")});
    for (Object[] g : garbage) {
      ReplyException e = failure(member.jobCenter((String) g[0], g[1], 10_000));
      assertTrue(e.failureCode() == 400 || e.failureCode() == 404 || e.failureCode() == 409,
          "op " + g[0] + " with " + g[1] + " answered " + e.failureCode() + " " + e.getMessage());
      assertFalse(e.getMessage() == null || e.getMessage().isBlank());
    }
    // messages without a reply address are dropped with a log line, and the node keeps going
    for (Object[] g : garbage) {
      DeliveryOptions opts = new DeliveryOptions();
      if (g[0] != null) {
        opts.addHeader("op", (String) g[0]);
      }
      member.node().vertx().eventBus().send(Addresses.JOB_CENTER, g[1], opts);
    }
    JsonObject after = member.snapshot();
    assertEquals("ok", after.getString("invariant"));
    assertEquals(before.getJsonArray("workers"), after.getJsonArray("workers"), "the pool is unchanged");
    assertEquals(before.getJsonArray("jobs"), after.getJsonArray("jobs"));
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
      assertFalse(member.map(Addresses.JOBS_MAP).containsKey(onW3.getString("jobId")));
      assertEquals(List.of(0, 1, 2, 3), ids(member.map(Addresses.WORKERS_MAP).get(w4), "worker_vacant_gpus"));
      assertEquals(List.of(0, 1), ids(member.map(Addresses.WORKERS_MAP).get(w2), "worker_vacant_gpus"));
    }
  }

  private Future<JsonObject> allocate(int gpus, long timeoutMs) {
    JsonObject body = new JsonObject().put("clientId", clientId).put("gpus", gpus).put("timeoutMs", timeoutMs);
    return member.jobCenter("allocate", body, timeoutMs + 10_000);
  }

  private void end(JsonObject job) throws Exception {
    member.jobCenter("end", new JsonObject().put("jobId", job.getString("jobId")), 10_000).await(15, TimeUnit.SECONDS);
  }

  private static JsonObject registration(String id, List<Integer> gpus) {
    return new JsonObject().put("workerId", id).put("nodeId", "n-rogue").put("hostname", "rogue-host")
        .put("host", "127.0.0.1").put("cpus", 2).put("gpus", new JsonArray(gpus));
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

}
