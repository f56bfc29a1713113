package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.parl.ActorBuilder;
import org.parl.ConnectOptions;
import org.parl.ParlClient;
import org.parl.ParlException;
import org.parl.RemoteActor;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;

/**
 * Issue 9: for a while (30 s; longer with {@code -Dparl.it.chaos.seconds=N}, replayable with
 * {@code -Dparl.it.chaos.seed=S}) GPU actors are created, called, closed and killed (their job
 * processes, by pid) on a 4-GPU master and a 2-GPU worker that is killed and started again. At every
 * step the JobCenter's pool is exact; every failure the client sees is a {@code ParlException}; no
 * operation hangs; and once the nodes are stopped no job process of the cluster is left. The same on
 * a mixed cluster, with CPU actors, whole GPUs, GPU shares and memory budgets side by side.
 */
class ChaosIT {

  /** An actor and the pid of its job process. */
  private record Live(RemoteActor<Counter> actor, long pid) {}

  private static final long OP_TIMEOUT_S = 90;

  private final Map<String, Integer> failures = new TreeMap<>();
  private final Map<String, Integer> done = new TreeMap<>();

  /** What one chaos run creates: an actor's resources, drawn at random. */
  private interface Creates {
    ActorBuilder<Counter> draw(ParlClient parl, Random rnd);
  }

  @Test
  void thePoolStaysExactWhileActorsAndAWorkerComeAndGo() throws Exception {
    try (TestCluster cluster = TestCluster.start(4)) {
      run(cluster, 30, (parl, rnd) -> parl.actor(Counter.class, CounterImpl.class).gpus(1 + rnd.nextInt(2)));
    }
  }

  @Test
  void theSameOnAMixedClusterWithSharesAndBudgets() throws Exception {
    try (TestCluster cluster = TestCluster.startMixed(2, 4)) {
      run(cluster, 20, (parl, rnd) -> {
        ActorBuilder<Counter> b = parl.actor(Counter.class, CounterImpl.class);
        return switch (rnd.nextInt(4)) {
          case 0 -> b.cpus(1);
          case 1 -> b.gpus(1 + rnd.nextInt(2)).cpus(0);
          case 2 -> b.gpus(new double[] {0.25, 0.5, 0.6}[rnd.nextInt(3)]).cpus(0);
          default -> b.gpus(0.125).gpuMemoryMb(8192 * (1 + rnd.nextInt(4))).cpus(0);
        };
      });
    }
  }

  private void run(TestCluster cluster, long defaultSeconds, Creates creates) throws Exception {
    long seconds = Long.getLong("parl.it.chaos.seconds", defaultSeconds);
    long seed = Long.getLong("parl.it.chaos.seed", System.nanoTime());
    Random rnd = new Random(seed);
    System.out.println("ChaosIT: seed " + seed + " (-Dparl.it.chaos.seed), " + seconds + " s");
    {
      ParlProcess[] spare = new ParlProcess[1];
      cluster.addWorker(spare, "--nvidia-smi", cluster.fakeSmi(2).toString());
      ParlClient parl = cluster.connect(new ConnectOptions().setResourceWaitTimeout(Duration.ofSeconds(2)));
      List<Live> actors = new ArrayList<>();
      CompletableFuture<String> restart = null;
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      long nextWorkerEvent = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      int snapshots = 0;
      while (System.nanoTime() < end) {
        step(cluster, parl, actors, rnd, creates);
        if (System.nanoTime() > nextWorkerEvent && (restart == null || restart.isDone())) {
          if (restart != null) {
            restart.join(); // a start that failed fails the test here
            restart = null;
          }
          if (spare[0].isAlive()) {
            spare[0].kill();
            count(done, "worker killed");
          } else {
            restart = CompletableFuture.supplyAsync(() -> cluster.addWorker(spare, "--nvidia-smi", cluster.fakeSmi(2).toString()));
            count(done, "worker started");
          }
          nextWorkerEvent = System.nanoTime() + TimeUnit.SECONDS.toNanos(4 + rnd.nextInt(5));
        }
        checkPool(cluster.member().snapshot());
        snapshots++;
      }
      if (restart != null) {
        restart.get(OP_TIMEOUT_S, TimeUnit.SECONDS);
      }
      System.out.println("ChaosIT: " + snapshots + " exact snapshots; done " + done + "; failures seen " + failures);
      parl.close();
      cluster.awaitSnapshot(s -> s.getJsonArray("jobs").isEmpty(), Duration.ofSeconds(60));

      // stopped as a user stops them (SIGTERM), the nodes leave no job process behind
      if (spare[0].isAlive()) {
        spare[0].stop(Duration.ofSeconds(60));
      }
      cluster.master.stop(Duration.ofSeconds(60));
      Await.until("no job process of " + cluster.home + " left", Duration.ofSeconds(30),
          () -> JobProcesses.of(cluster.home), List::isEmpty);
    }
  }

  /** One random operation; a failure must be a ParlException, and nothing may wait for ever. */
  private void step(TestCluster cluster, ParlClient parl, List<Live> actors, Random rnd, Creates creates) throws Exception {
    int op = rnd.nextInt(10);
    Live target = actors.isEmpty() ? null : actors.get(rnd.nextInt(actors.size()));
    try {
      if (op < 3 || target == null) {
        RemoteActor<Counter> a = creates.draw(parl, rnd).createAsync().await(OP_TIMEOUT_S, TimeUnit.SECONDS);
        actors.add(new Live(a, a.call(Counter::pid).await(OP_TIMEOUT_S, TimeUnit.SECONDS)));
        count(done, "create");
      } else if (op < 6) {
        target.actor().call(x -> x.add(1)).await(OP_TIMEOUT_S, TimeUnit.SECONDS);
        count(done, "call");
      } else if (op == 6) {
        List<Future<Integer>> burst = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
          burst.add(target.actor().call(x -> x.add(1)));
        }
        for (Future<Integer> f : burst) {
          f.await(OP_TIMEOUT_S, TimeUnit.SECONDS);
        }
        count(done, "5 async calls");
      } else if (op < 9) {
        actors.remove(target);
        target.actor().closeAsync().await(OP_TIMEOUT_S, TimeUnit.SECONDS);
        count(done, "close");
      } else {
        ProcessHandle.of(target.pid()).ifPresent(ProcessHandle::destroyForcibly);
        count(done, "job killed");
      }
    } catch (TimeoutException e) {
      fail("operation " + op + " on " + target + " did not finish within " + OP_TIMEOUT_S + " s; snapshot: "
          + cluster.member().snapshot().encodePrettily());
    } catch (ParlException e) {
      count(failures, e.getClass().getSimpleName());
    } catch (Throwable e) {
      throw new AssertionError("a failure that is not a ParlException reached the user: " + e, e);
    }
  }

  /**
   * The invariant the JobCenter checks, and the same seen from outside: each GPU in one list only, a
   * GPU held whole by one job, the shares on a GPU adding up to what its record says (at most a whole
   * GPU), and the used GPUs exactly those some job holds.
   */
  private static void checkPool(JsonObject s) {
    assertEquals("ok", s.getString("invariant"), s.encodePrettily());
    for (Object o : s.getJsonArray("workers")) {
      JsonObject w = (JsonObject) o;
      Set<Object> vacant = new HashSet<>();
      w.getJsonArray("worker_vacant_gpus").forEach(vacant::add);
      Set<Object> used = new HashSet<>();
      w.getJsonArray("worker_used_gpus").forEach(used::add);
      assertEquals(w.getJsonArray("worker_vacant_gpus").size(), vacant.size(), "a GPU twice in the vacant list: " + w);
      assertEquals(w.getJsonArray("worker_used_gpus").size(), used.size(), "a GPU twice in the used list: " + w);
      assertTrue(vacant.stream().noneMatch(used::contains), "a GPU both vacant and used: " + w);
      Map<Object, Integer> units = new TreeMap<>((a, b) -> Integer.compare((Integer) a, (Integer) b));
      Set<Object> wholes = new HashSet<>();
      for (Object j : s.getJsonArray("jobs")) {
        JsonObject job = (JsonObject) j;
        if (w.getString("id").equals(job.getString("workerId"))) {
          int share = job.getInteger("gpuShare", 1000);
          for (Object g : job.getJsonArray("gpus", new JsonArray())) {
            assertFalse(wholes.contains(g) || (share == 1000 && units.containsKey(g)),
                "GPU " + g + " of worker " + w.getString("id") + " held whole and by another job: " + s.encodePrettily());
            if (share == 1000) {
              wholes.add(g);
            }
            units.merge(g, share, Integer::sum);
          }
        }
      }
      assertEquals(used, units.keySet(), "the used GPUs of worker " + w.getString("id") + " are those its jobs hold");
      for (Object o2 : w.getJsonArray("gpuShares", new JsonArray())) {
        JsonObject g = (JsonObject) o2;
        int held = units.getOrDefault(g.getInteger("index"), 0);
        assertTrue(held <= 1000, "GPU " + g + " holds more than a whole GPU: " + s.encodePrettily());
        assertEquals(held, g.getInteger("shareUsed"), "the shares of GPU " + g + " add up: " + s.encodePrettily());
      }
    }
  }

  private static void count(Map<String, Integer> counts, String what) {
    counts.merge(what, 1, Integer::sum);
  }
}
