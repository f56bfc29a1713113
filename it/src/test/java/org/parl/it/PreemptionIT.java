package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.parl.ActorPreemptedException;
import org.parl.ConnectOptions;
import org.parl.InvalidRequestException;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.ResourceException;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;

/**
 * Priorities and preemption on a real GPU cluster of 2 fake GPUs started with {@code --allow-preemption}: a
 * create of higher priority that asks to preempt stops the fewest lower-priority actors, whose callers get
 * {@link ActorPreemptedException} and whose processes are gone before their GPUs are granted again; equal
 * priorities never preempt, and a cluster without the flag refuses the request.
 */
class PreemptionIT {

  @Test
  void aHigherPriorityCreatePreemptsTheActorsThatHoldItsGpus() throws Exception {
    try (TestCluster cluster = TestCluster.start(2, "--allow-preemption");
        ParlClient low = cluster.connect();
        ParlClient high = cluster.connect(new ConnectOptions().setResourceWaitTimeout(Duration.ofSeconds(60)))) {
      RemoteActor<Counter> a = low.actor(Counter.class, CounterImpl.class).gpus(1).priority(3).createAsync().await();
      RemoteActor<Counter> b = low.actor(Counter.class, CounterImpl.class).gpus(1).priority(3).createAsync().await();
      long pidA = a.call(Counter::pid).await();
      long pidB = b.call(Counter::pid).await();

      try (ParlClient peer = cluster.connect(new ConnectOptions().setResourceWaitTimeout(Duration.ofSeconds(2)))) {
        var e = assertThrows(ResourceException.class, () -> peer.actor(Counter.class, CounterImpl.class).gpus(1)
            .priority(3).preempt(true).createAsync().await());
        assertTrue(e.getMessage().contains("no worker had"), e.getMessage());
        assertThrows(ResourceException.class, () -> peer.actor(Counter.class, CounterImpl.class).gpus(1)
            .priority(9).preempt(true).waitForResources(false).createAsync().await(), "a create that does not wait preempts nobody");
      }
      assertEquals(3, (int) b.call(x -> x.add(3)).await(), "an equal priority preempts nobody");
      assertEquals(3, (int) a.call(x -> x.add(3)).await());

      RemoteActor<Counter> big = high.actor(Counter.class, CounterImpl.class).gpus(2).priority(50).preempt(true)
          .createAsync().await();
      assertEquals(2, big.gpus().size());
      assertFalse(ProcessHandle.of(pidA).isPresent() || ProcessHandle.of(pidB).isPresent(),
          "both victims' processes were gone before their GPUs were granted again");
      for (RemoteActor<Counter> victim : List.of(a, b)) {
        ActorPreemptedException e = assertThrows(ActorPreemptedException.class, () -> victim.call(Counter::pid).await());
        assertTrue(e.getMessage().contains("preempted for a create of priority 50"), e.getMessage());
      }
      big.close();
      cluster.awaitIdle();
    }
  }

  @Test
  void aClusterWithoutTheFlagRefusesToPreempt() throws Exception {
    try (TestCluster cluster = TestCluster.start(1); ParlClient parl = cluster.connect()) {
      var e = assertThrows(InvalidRequestException.class, () -> parl.actor(Counter.class, CounterImpl.class).gpus(1)
          .preempt(true).createAsync().await());
      assertTrue(e.getMessage().contains("--allow-preemption"), e.getMessage());
      assertEquals("a priority is from 0 to 100, not 101", assertThrows(InvalidRequestException.class,
          () -> parl.actor(Counter.class, CounterImpl.class).gpus(1).priority(101).createAsync().await()).getMessage());
    }
  }
}
