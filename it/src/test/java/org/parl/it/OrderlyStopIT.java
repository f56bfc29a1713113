package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.parl.ActorLostException;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;

/**
 * An orderly stop is not a crash (docs/contract.md §7): a worker stopped by SIGTERM says goodbye to the
 * JobCenter before it leaves the cluster, so the master logs that it stopped (not that it left without
 * a word) and its GPUs leave the pool at once; a master stopped with its local worker does the same,
 * and each node prints one line when it stops.
 */
class OrderlyStopIT {

  private static final String CRASH = "without a word";

  @Test
  void aStoppedWorkerSaysGoodbye() throws Exception {
    try (TestCluster cluster = TestCluster.start(2)) {
      ParlProcess[] handle = new ParlProcess[1];
      String stopping = cluster.addWorker(handle, "--nvidia-smi", cluster.fakeSmi(2).toString());
      ParlClient parl = cluster.connect();
      List<RemoteActor<Counter>> both = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        both.add(parl.actor(Counter.class, CounterImpl.class).gpus(2).createAsync().await(60, TimeUnit.SECONDS));
      }
      RemoteActor<Counter> onStopping = both.stream().filter(a -> a.workerId().equals(stopping)).findFirst().orElseThrow();
      RemoteActor<Counter> elsewhere = both.stream().filter(a -> a != onStopping).findFirst().orElseThrow();
      assertNotEquals(stopping, elsewhere.workerId(), "one 2-GPU actor on each 2-GPU worker");

      handle[0].stop(Duration.ofSeconds(60));
      // no grace period to wait out: the pool is already without it when the process has exited
      JsonObject pool = cluster.awaitSnapshot(s -> true, Duration.ofSeconds(10));
      assertEquals(Set.of(cluster.localWorker), workerIds(pool), pool.encodePrettily());
      assertEquals(1, pool.getJsonArray("jobs").size(), "only the actor elsewhere still holds GPUs: " + pool.encodePrettily());
      cluster.master.awaitLine("worker " + stopping + " on \\S+ left \\(it stopped\\); dropped it and 1 job\\(s\\) from the pool",
          Duration.ofSeconds(10));
      assertFalse(cluster.master.output().contains(CRASH), cluster.master.output());
      assertThrows(ActorLostException.class, () -> onStopping.call(Counter::value).await(10, TimeUnit.SECONDS));
      assertEquals(1, elsewhere.call(x -> x.add(1)).await(30, TimeUnit.SECONDS), "actors elsewhere are untouched");

      parl.close();
      cluster.master.stop(Duration.ofSeconds(60));
      cluster.master.awaitLine("^parl master " + Pattern.quote(cluster.address) + " stopped$", Duration.ofSeconds(10));
      String out = cluster.master.output();
      assertTrue(Pattern.compile("worker " + cluster.localWorker + " on \\S+ left \\(it stopped\\)").matcher(out).find(),
          "the local worker's goodbye: " + out);
      assertFalse(out.contains(CRASH), out);
      assertFalse(out.contains("Exception"), "no stack trace at an orderly stop: " + out);
    }
  }

  private static Set<String> workerIds(JsonObject snapshot) {
    Set<String> ids = new HashSet<>();
    snapshot.getJsonArray("workers").forEach(w -> ids.add(((JsonObject) w).getString("id")));
    return ids;
  }
}
