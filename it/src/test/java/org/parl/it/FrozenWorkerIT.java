package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.parl.ActorLostException;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;

/**
 * docs/contract.md §7: a worker frozen with its jobs (SIGSTOP, by pid) is dropped by the JobCenter and its
 * actors' calls fail, although their sockets stay open; once it thaws it fences itself (its jobs
 * stop, it exits), and a worker started again in its place offers its GPUs exactly once.
 */
class FrozenWorkerIT {

  @Test
  void aFrozenWorkerIsDroppedAndFencesItselfWhenItThaws() throws Exception {
    try (TestCluster cluster = TestCluster.start(2)) {
      ParlProcess[] handle = new ParlProcess[1];
      String frozen = cluster.addWorker(handle, "--nvidia-smi", cluster.fakeSmi(2).toString());
      ParlProcess worker = handle[0];
      ParlClient parl = cluster.connect();
      List<RemoteActor<Counter>> both = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        both.add(parl.actor(Counter.class, CounterImpl.class).gpus(2).createAsync().await(60, TimeUnit.SECONDS));
      }
      RemoteActor<Counter> onFrozen = both.stream().filter(a -> a.workerId().equals(frozen)).findFirst().orElseThrow();
      RemoteActor<Counter> elsewhere = both.stream().filter(a -> a != onFrozen).findFirst().orElseThrow();
      assertNotEquals(frozen, elsewhere.workerId(), "one 2-GPU actor on each 2-GPU worker");
      Path running = cluster.marker("frozen");
      Future<Void> pending = onFrozen.run(x -> x.markThenSleep(running.toString(), 120_000));
      Await.until("the call running in job " + onFrozen.jobId(), Duration.ofSeconds(30), () -> Files.exists(running));

      List<Long> tree = Signals.family(worker.pid());
      long t0 = System.nanoTime();
      Signals.send("STOP", tree);
      try {
        ActorLostException lost = assertThrows(ActorLostException.class, () -> pending.await(15, TimeUnit.SECONDS));
        System.out.printf("FrozenWorkerIT: the blocked call failed %d ms after SIGSTOP: %s%n", ms(t0), lost.getMessage());
        assertTrue(lost.getMessage().contains(frozen), lost.getMessage());
        Future<Integer> later = onFrozen.call(Counter::value);
        assertTrue(later.failed() && later.cause() instanceof ActorLostException, "a later call fails at once: " + later);
        cluster.awaitSnapshot(s -> !workerIds(s).contains(frozen), Duration.ofSeconds(20));
        System.out.printf("FrozenWorkerIT: the JobCenter had dropped the worker %d ms after SIGSTOP%n", ms(t0));
      } finally {
        Signals.send("CONT", tree);
      }

      long thawed = System.nanoTime();
      assertEquals(1, worker.awaitExit(Duration.ofSeconds(90)), "the thawed worker fences itself and exits");
      System.out.printf("FrozenWorkerIT: the thawed worker exited %d ms after SIGCONT%n", ms(thawed));
      assertTrue(worker.output().contains("worker " + frozen + " stopped its"), worker.output());
      for (long pid : tree) {
        Await.exited(pid, Duration.ofSeconds(30), "process " + pid + " of the frozen worker");
      }
      assertThrows(ActorLostException.class, () -> onFrozen.call(Counter::value).await(10, TimeUnit.SECONDS));
      assertEquals(1, elsewhere.call(x -> x.add(1)).await(30, TimeUnit.SECONDS), "actors elsewhere are untouched");

      String fresh = cluster.addWorker(handle, "--nvidia-smi", cluster.fakeSmi(2).toString());
      JsonObject pool = cluster.awaitSnapshot(s -> workerIds(s).contains(fresh), Duration.ofSeconds(30));
      assertEquals(Set.of(cluster.localWorker, fresh), workerIds(pool));
      JsonObject back = worker(pool, fresh);
      assertEquals(List.of(0, 1), back.getJsonArray("worker_vacant_gpus").getList(), "its GPUs are back, once");
      assertEquals(List.of(), back.getJsonArray("worker_used_gpus").getList());
      // one-GPU actors: then the warm pool keeps no process for a GPU a job holds, and no two
      // job processes of a worker may see the same GPU
      Set<String> given = new HashSet<>();
      for (int i = 0; i < 2; i++) {
        RemoteActor<Counter> again = parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await(60, TimeUnit.SECONDS);
        assertEquals(fresh, again.workerId());
        assertEquals(String.join(",", again.gpus()), again.call(x -> x.env("CUDA_VISIBLE_DEVICES")).await(30, TimeUnit.SECONDS));
        assertTrue(given.add(again.gpus().get(0)), "GPU " + again.gpus() + " given twice");
      }
      Map<String, List<Long>> shared = JobProcesses.sharedGpus(JobProcesses.under(handle[0].pid()));
      assertEquals(Map.of(), shared, "no GPU id is seen by two job processes of the new worker");
      parl.close();
      cluster.awaitSnapshot(s -> s.getJsonArray("jobs").isEmpty(), Duration.ofSeconds(30));
      handle[0].close();
    }
  }

  private static long ms(long since) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
  }

  private static Set<String> workerIds(JsonObject snapshot) {
    Set<String> ids = new HashSet<>();
    snapshot.getJsonArray("workers").forEach(w -> ids.add(((JsonObject) w).getString("id")));
    return ids;
  }

  private static JsonObject worker(JsonObject snapshot, String id) {
    JsonArray workers = snapshot.getJsonArray("workers");
    for (int i = 0; i < workers.size(); i++) {
      if (id.equals(workers.getJsonObject(i).getString("id"))) {
        return workers.getJsonObject(i);
      }
    }
    throw new AssertionError("no worker " + id + " in " + snapshot.encodePrettily());
  }
}
