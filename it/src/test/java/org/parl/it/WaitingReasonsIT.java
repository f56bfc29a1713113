package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.ConnectOptions;
import org.parl.InvalidRequestException;
import org.parl.ParlClient;
import org.parl.PendingCreate;
import org.parl.RemoteActor;
import org.parl.ResourceException;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;
import org.parl.monitor.MonitorHttp;

/**
 * GPU shares and waits that explain themselves (docs/contract.md §4.1) on a GPU cluster whose one worker lends
 * 2 fake GPUs: four quarter actors fill one GPU exactly, a create that waits says why (in
 * {@code parl status --waiting}, {@code /api/waiting}, {@code parl.waiting()} and its
 * {@code ResourceException}), what can never fit fails at once, and a big request is not starved.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WaitingReasonsIT {

  private TestCluster cluster;
  private MonitorHttp http;

  @BeforeAll
  void start() throws Exception {
    cluster = TestCluster.start(2);
    Matcher monitor = cluster.master.awaitLine("monitor: (https://[^/\\s]+)(/login\\?code=\\S+)", TestCluster.START);
    http = new MonitorHttp(monitor.group(1), cluster.token());
  }

  @AfterAll
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @BeforeEach
  void idle() throws Exception {
    cluster.awaitSnapshot(s -> s.getJsonArray("jobs").isEmpty() && s.getInteger("waiting") == 0
        && s.getJsonArray("workers").size() == 1, Duration.ofSeconds(30));
  }

  @Test
  void fourQuartersFillOneGpuExactlyAndAFifthWaitsWithItsReason() throws Exception {
    try (ParlClient parl = cluster.connect(); ParlClient other = cluster.connect()) {
      RemoteActor<Counter> whole = parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await();
      List<RemoteActor<Counter>> quarters = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        quarters.add(parl.actor(Counter.class, CounterImpl.class).gpus(0.25).createAsync().await());
      }
      String shared = quarters.get(0).gpus().get(0);
      for (RemoteActor<Counter> q : quarters) {
        assertEquals(List.of(shared), q.gpus(), "a share never spans GPUs: all four on one GPU");
        long pid = q.call(Counter::pid).await();
        assertEquals(List.of(shared), JobProcesses.job(pid).orElseThrow().gpus(), "its process sees the shared GPU");
      }
      JsonObject s = cluster.awaitSnapshot(x -> x.getJsonArray("jobs").size() == 5, Duration.ofSeconds(10));
      JsonObject w = s.getJsonArray("workers").getJsonObject(0);
      assertEquals(List.of(0, 1), w.getJsonArray("worker_used_gpus").getList(), "a GPU with any share used is used");
      assertEquals(List.of(), w.getJsonArray("worker_vacant_gpus").getList());
      assertEquals(1000, share(w, Integer.parseInt(shared)).getInteger("shareUsed"), "four quarters fill it exactly");

      // a fifth quarter waits, with its reason everywhere people look
      Future<RemoteActor<Counter>> fifth = other.actor(Counter.class, CounterImpl.class).gpus(0.25).createAsync();
      cluster.awaitWaiting(1);
      ParlProcess status = cluster.cli("status", "--waiting", "--address", cluster.address);
      assertEquals(0, status.awaitExit(Duration.ofSeconds(5)), status.output());
      assertTrue(status.output().contains("1 create(s) waiting:"), status.output());
      assertTrue(status.output().contains("asks 0.25 of a GPU"), status.output());
      assertTrue(status.output().contains("client " + other.id()), status.output());
      assertTrue(status.output().contains("why: "), status.output());
      assertTrue(status.output().contains("GPU " + shared + " used"), "status shows the per-GPU shares: " + status.output());

      JsonArray api = http.get("/api/waiting").json().getJsonArray("waiting");
      assertEquals(1, api.size(), api.encode());
      JsonObject waiting = api.getJsonObject(0);
      assertEquals(other.id(), waiting.getString("clientId"));
      assertEquals("busy", waiting.getString("reasonClass"), waiting.encode());
      assertFalse(waiting.getString("reason").isBlank());

      List<PendingCreate> seen = parl.waiting().await();
      assertEquals(1, seen.size());
      assertEquals(waiting.getString("reason"), seen.get(0).reason());

      String metrics = http.get("/metrics").body();
      assertTrue(metrics.contains("parl_pending_requests_by_reason{reason=\"busy\"} 1"), metrics);
      assertTrue(metrics.contains("parl_gpu_share_used_ratio{"), metrics);

      quarters.get(0).close();
      RemoteActor<Counter> placed = fifth.await();
      assertEquals(List.of(shared), placed.gpus(), "the freed quarter goes to the waiting one");
      whole.close();
    }
  }

  @Test
  void aTimedOutCreateQuotesItsLastReason() throws Exception {
    try (ParlClient parl = cluster.connect();
         ParlClient impatient = cluster.connect(new ConnectOptions().setResourceWaitTimeout(Duration.ofMillis(1500)))) {
      parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await();
      ResourceException e = assertThrows(ResourceException.class,
          () -> impatient.actor(Counter.class, CounterImpl.class).gpus(2).createAsync().await());
      assertTrue(e.getMessage().contains("no worker had 2 vacant GPU(s) within 1.5 s"), e.getMessage());
      assertTrue(e.getMessage().contains("last reason: "), e.getMessage());
      assertTrue(e.getMessage().contains("1 of 2"), "names the constraint of the worker: " + e.getMessage());
    }
  }

  @Test
  void whatCanNeverFitFailsAtOnceUnlessItWaitsForWorkers() throws Exception {
    try (ParlClient parl = cluster.connect()) {
      long t0 = System.nanoTime();
      InvalidRequestException e = assertThrows(InvalidRequestException.class,
          () -> parl.actor(Counter.class, CounterImpl.class).gpus(4).createAsync().await());
      assertTrue((System.nanoTime() - t0) / 1e9 < 5, "at once, not after the resource wait");
      assertTrue(e.getMessage().contains("no worker of this cluster could ever hold 4 GPUs"), e.getMessage());
      assertTrue(e.getMessage().contains("lends 2 GPU"), "names the largest worker: " + e.getMessage());

      InvalidRequestException model = assertThrows(InvalidRequestException.class,
          () -> parl.actor(Counter.class, CounterImpl.class).gpus(1).gpuModel("A100").createAsync().await());
      assertTrue(model.getMessage().contains("Fake H100"), "names the models present: " + model.getMessage());

      InvalidRequestException fraction = assertThrows(InvalidRequestException.class,
          () -> parl.actor(Counter.class, CounterImpl.class).gpus(0.0001).createAsync().await());
      assertTrue(fraction.getMessage().contains("whole number of 1/1000 of a GPU"), fraction.getMessage());
      InvalidRequestException spans = assertThrows(InvalidRequestException.class,
          () -> parl.actor(Counter.class, CounterImpl.class).gpus(1.5).createAsync().await());
      assertTrue(spans.getMessage().contains("above 1 must be whole"), spans.getMessage());

      Future<RemoteActor<Counter>> patient = parl.actor(Counter.class, CounterImpl.class).gpus(4).waitForWorkers(true)
          .createAsync();
      JsonObject s = cluster.awaitWaiting(1);
      assertFalse(patient.isComplete());
      JsonObject waiting = http.get("/api/waiting").json().getJsonArray("waiting").getJsonObject(0);
      assertEquals("no_worker", waiting.getString("reasonClass"), waiting.encode());
      parl.close();
      cluster.awaitSnapshot(x -> x.getInteger("waiting") == 0, Duration.ofSeconds(10));
      assertTrue(s.getInteger("waiting") == 1);
    }
  }

  @Test
  void aRequestThatBecomesImpossibleWhenTheBigWorkerLeavesFailsAtOnce() throws Exception {
    ParlProcess[] big = new ParlProcess[1];
    cluster.addWorker(big, "--nvidia-smi", cluster.fakeSmi(4).toString());
    cluster.awaitSnapshot(s -> s.getJsonArray("workers").size() == 2, Duration.ofSeconds(30));
    try (ParlClient parl = cluster.connect()) {
      RemoteActor<Counter> held = parl.actor(Counter.class, CounterImpl.class).gpus(4).createAsync().await();
      Future<RemoteActor<Counter>> three = parl.actor(Counter.class, CounterImpl.class).gpus(3).createAsync();
      cluster.awaitWaiting(1);
      long t0 = System.nanoTime();
      big[0].kill();
      InvalidRequestException e = assertThrows(InvalidRequestException.class, three::await);
      assertTrue((System.nanoTime() - t0) / 1e9 < 20, "when the worker is dropped, not at the resource timeout");
      assertTrue(e.getMessage().contains("the last worker that could left"), e.getMessage());
      held.toString();
    }
    cluster.awaitSnapshot(s -> s.getJsonArray("workers").size() == 1, Duration.ofSeconds(30));
  }

  @Test
  void aBigRequestIsNotStarvedByAStreamOfSmallOnes() throws Exception {
    try (ParlClient parl = cluster.connect()) {
      RemoteActor<Counter> first = parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await();
      Future<RemoteActor<Counter>> big = parl.actor(Counter.class, CounterImpl.class).gpus(2).createAsync();
      cluster.awaitWaiting(1);
      // a stream of small creates arrives while the big one waits: the worker is reserved for it
      List<Future<RemoteActor<Counter>>> small = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        small.add(parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync());
      }
      cluster.awaitWaiting(4);
      assertFalse(big.isComplete());
      small.forEach(f -> assertFalse(f.isComplete(), "a small create took the reserved worker's vacant GPU"));
      // the bound: the big one is placed as soon as the jobs running at its reservation end
      first.close();
      RemoteActor<Counter> placed = big.await();
      assertEquals(List.of("0", "1"), placed.gpus());
      small.forEach(f -> assertFalse(f.isComplete(), "nothing was placed before the big one"));
      placed.close();
      for (Future<RemoteActor<Counter>> f : small.subList(0, 2)) {
        f.await();
      }
    }
  }

  private static JsonObject share(JsonObject worker, int index) {
    for (Object o : worker.getJsonArray("gpuShares")) {
      if (o instanceof JsonObject g && g.getInteger("index") == index) {
        return g;
      }
    }
    throw new AssertionError("no share of GPU " + index + " in " + worker.encode());
  }
}
