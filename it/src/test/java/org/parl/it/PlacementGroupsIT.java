package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.ActorLostException;
import org.parl.Bundle;
import org.parl.ConnectOptions;
import org.parl.InvalidRequestException;
import org.parl.ParlClient;
import org.parl.PendingCreate;
import org.parl.PlacementGroup;
import org.parl.PlacementStrategy;
import org.parl.RemoteActor;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;

/**
 * Placement groups on a real mixed cluster (docs/resources.md): two workers of 2 CPUs and 2 fake GPUs each.
 * Groups are held whole or not at all, actors in a bundle run on its worker and see exactly its GPUs, two
 * trainings that would deadlock one create at a time complete one after the other, and wrong groups are
 * refused at once with their reason; after each test every unit is back in the pool.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PlacementGroupsIT {

  private TestCluster cluster;

  @BeforeAll
  void start() throws Exception {
    cluster = TestCluster.startMixed(2, 2);
    cluster.addWorker(new ParlProcess[1], "--cpus", "2", "--nvidia-smi", cluster.fakeSmi(2).toString());
    cluster.awaitSnapshot(s -> s.getJsonArray("workers").size() == 2, Duration.ofSeconds(30));
  }

  @AfterAll
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aStrictSpreadGroupsActorsRunOnTheirBundlesWorkersWithExactlyTheirGpus() throws Exception {
    try (ParlClient parl = cluster.connect()) {
      PlacementGroup group = parl.createGroup(PlacementStrategy.STRICT_SPREAD, Bundle.gpus(1), Bundle.gpus(1));
      assertTrue(group.id().startsWith("pg-"), group.id());
      assertNotEquals(group.workerOf(0), group.workerOf(1));
      List<RemoteActor<Counter>> actors = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        RemoteActor<Counter> a = parl.actor(Counter.class, CounterImpl.class).inGroup(group, i).createAsync().await();
        assertEquals(group.workerOf(i), a.workerId());
        assertEquals(group.gpusOf(i).stream().map(String::valueOf).toList(), a.gpus());
        long pid = a.call(Counter::pid).await();
        assertEquals(a.gpus(), new ArrayList<>(JobProcesses.job(pid).orElseThrow().gpus()), "its process sees its bundle's GPU");
        actors.add(a);
      }
      var busy = assertThrows(InvalidRequestException.class,
          () -> parl.actor(Counter.class, CounterImpl.class).inGroup(group, 0).createAsync().await());
      assertTrue(busy.getMessage().contains("one actor at a time holds a bundle"), busy.getMessage());

      actors.get(0).close();
      RemoteActor<Counter> again = parl.actor(Counter.class, CounterImpl.class).inGroup(group, 0).createAsync().await();
      assertEquals(actors.get(0).gpus(), again.gpus(), "the bundle kept its GPU while it was idle");

      JsonObject held = cluster.awaitSnapshot(s -> s.getJsonArray("jobs").size() == 2, Duration.ofSeconds(10));
      assertEquals(2, usedGpus(held), "the group holds two GPUs, and nothing else runs");
      assertEquals(group.id(), held.getJsonArray("groups").getJsonObject(0).getString("groupId"), "the snapshot lists the group");

      group.remove();
      ActorLostException lost = assertThrows(ActorLostException.class, () -> again.call(Counter::pid).await());
      assertTrue(lost.getMessage().contains("was removed"), lost.getMessage());
      group.remove(); // a second removal is no error
    }
    assertEquals(0, usedGpus(cluster.awaitIdle()));
  }

  @Test
  void twoTrainingsThatWouldDeadlockOneCreateAtATimeRunOneAfterTheOther() throws Exception {
    List<Bundle> training = Collections.nCopies(3, Bundle.gpus(1));
    try (ParlClient parl = cluster.connect(new ConnectOptions().setResourceWaitTimeout(Duration.ofSeconds(60)))) {
      Future<PlacementGroup> first = parl.createGroupAsync(PlacementStrategy.PACK, training);
      Future<PlacementGroup> second = parl.createGroupAsync(PlacementStrategy.PACK, training);
      Future.any(first, second).await();
      PlacementGroup held = first.succeeded() ? first.result() : second.result();
      Future<PlacementGroup> other = first.succeeded() ? second : first;
      List<PendingCreate> waiting = Await.until("the other group waiting", Duration.ofSeconds(10), () -> parl.waiting().await(),
          w -> w.size() == 1);
      assertEquals("placement group", waiting.get(0).actorClass());
      assertTrue(waiting.get(0).reason().contains("bundle"), waiting.get(0).reason());
      assertEquals(3, usedGpus(cluster.awaitSnapshot(s -> true, Duration.ofSeconds(5))), "never a partial hold of the other");
      assertFalse(other.isComplete());

      held.remove();
      PlacementGroup next = other.await();
      assertEquals(3, next.size());
      assertEquals(3, usedGpus(cluster.awaitSnapshot(s -> true, Duration.ofSeconds(5))));
    }
    assertEquals(0, usedGpus(cluster.awaitIdle()), "a client's groups go with it");
  }

  @Test
  void wrongGroupsAreRefusedAtOnceWithTheirReason() throws Exception {
    try (ParlClient parl = cluster.connect()) {
      assertEquals("a placement group needs at least one bundle", assertThrows(InvalidRequestException.class,
          () -> parl.createGroupAsync(PlacementStrategy.PACK, List.of()).await()).getMessage());
      assertEquals("a placement group has at most 1024 bundles, not 10000", assertThrows(InvalidRequestException.class,
          () -> parl.createGroupAsync(PlacementStrategy.SPREAD, Collections.nCopies(10_000, Bundle.cpus(1))).await()).getMessage());
      assertEquals("a priority is from 0 to 100, not -1", assertThrows(InvalidRequestException.class,
          () -> parl.createGroupAsync(PlacementStrategy.PACK, List.of(Bundle.cpus(1)), -1).await()).getMessage());
      var packed = assertThrows(InvalidRequestException.class,
          () -> parl.createGroup(PlacementStrategy.STRICT_PACK, Bundle.gpus(1), Bundle.gpus(1), Bundle.gpus(1)));
      assertTrue(packed.getMessage().contains("STRICT_PACK"), packed.getMessage());
      var bundle = assertThrows(InvalidRequestException.class,
          () -> parl.createGroup(PlacementStrategy.PACK, Bundle.gpus(1), Bundle.gpus(0.0001)));
      assertTrue(bundle.getMessage().startsWith("bundle 1: "), bundle.getMessage());
      try (PlacementGroup group = parl.createGroup(PlacementStrategy.SPREAD, Bundle.cpus(1))) {
        assertEquals("placement group " + group.id() + " has bundles 0 to 0, not 5", assertThrows(InvalidRequestException.class,
            () -> parl.actor(Counter.class, CounterImpl.class).inGroup(group, 5).createAsync().await()).getMessage());
        try (ParlClient other = cluster.connect()) {
          assertThrows(InvalidRequestException.class,
              () -> other.actor(Counter.class, CounterImpl.class).inGroup(group, 0).createAsync().await());
        }
      }
    }
    assertEquals(0, usedGpus(cluster.awaitIdle()));
  }

  private static int usedGpus(JsonObject snapshot) {
    int used = 0;
    for (Object o : snapshot.getJsonArray("workers")) {
      used += ((JsonObject) o).getJsonArray("worker_used_gpus").size();
    }
    return used;
  }
}
