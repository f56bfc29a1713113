package org.parl.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.parl.internal.resources.Allocation;
import org.parl.internal.resources.ResourceRequest;

class ResourcePoolTest {

  private final ResourcePool pool = new ResourcePool();

  @Test
  void bestFitPicksTheTightestWorker() {
    pool.addWorker("big", 0, List.of(0, 1, 2, 3));
    pool.addWorker("small", 0, List.of(0, 1));
    Allocation a = pool.allocate("j1", ResourceRequest.ofGpus(2)).orElseThrow();
    assertEquals("small", a.workerId());
    assertEquals(List.of(0, 1), a.gpus());
    Allocation b = pool.allocate("j2", ResourceRequest.ofGpus(1)).orElseThrow();
    assertEquals("big", b.workerId());
    assertEquals(List.of(0), b.gpus());
    Allocation c = pool.allocate("j3", ResourceRequest.ofGpus(3)).orElseThrow();
    assertEquals(List.of(1, 2, 3), c.gpus());
    assertTrue(pool.allocate("j4", ResourceRequest.ofGpus(1)).isEmpty());
    pool.checkInvariants();
  }

  @Test
  void releaseReturnsExactlyTheIds() {
    pool.addWorker("w", 0, List.of(0, 2, 3));
    Allocation a = pool.allocate("j1", ResourceRequest.ofGpus(2)).orElseThrow();
    assertEquals(List.of(0, 2), a.gpus());
    WorkerView v = pool.worker("w").orElseThrow();
    assertEquals(List.of(3), v.vacantGpus());
    assertEquals(List.of(0, 2), v.usedGpus());
    assertEquals(a, pool.release("j1").orElseThrow());
    assertTrue(pool.release("j1").isEmpty(), "a second release changes nothing");
    assertEquals(List.of(0, 2, 3), pool.worker("w").orElseThrow().vacantGpus());
    pool.checkInvariants();
  }

  @Test
  void cpuAccountingStaysWithinBounds() {
    pool.addWorker("w", 4, List.<Integer>of());
    pool.allocate("a", ResourceRequest.ofCpus(3)).orElseThrow();
    assertTrue(pool.allocate("b", ResourceRequest.ofCpus(2)).isEmpty());
    pool.allocate("c", ResourceRequest.ofCpus(1)).orElseThrow();
    assertEquals(0, pool.worker("w").orElseThrow().cpusVacant());
    pool.checkInvariants();
  }

  @Test
  void removingAWorkerReportsItsAllocationsAsLost() {
    pool.addWorker("w1", 0, List.of(0, 1));
    pool.addWorker("w2", 0, List.of(0));
    pool.allocate("a", ResourceRequest.ofGpus(2)).orElseThrow();
    pool.allocate("b", ResourceRequest.ofGpus(1)).orElseThrow();
    List<Allocation> lost = pool.removeWorker("w1");
    assertEquals(1, lost.size());
    assertEquals("a", lost.get(0).jobId());
    assertTrue(pool.release("a").isEmpty(), "a lost job has nothing left to release");
    assertEquals(1, pool.allocationCount());
    pool.checkInvariants();
  }

  @Test
  void badWorkersAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> pool.addWorker("w", 0, List.of(0, 0)));
    assertThrows(IllegalArgumentException.class, () -> pool.addWorker("w", 0, List.of(-1)));
    assertThrows(IllegalArgumentException.class, () -> pool.addWorker("w", -2, List.<Integer>of()));
    assertThrows(IllegalArgumentException.class, () -> pool.addWorker("w", 0, List.<Integer>of()));
    pool.addWorker("w", 1, List.<Integer>of());
    assertThrows(IllegalArgumentException.class, () -> pool.addWorker("w", 1, List.<Integer>of()));
    assertEquals(1, pool.workerCount());
    pool.checkInvariants();
  }

  @Test
  void badRequestsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new ResourceRequest(0, 0));
    assertThrows(IllegalArgumentException.class, () -> new ResourceRequest(-1, 1));
    assertThrows(IllegalArgumentException.class, () -> new ResourceRequest(1, -1));
    pool.addWorker("w", 2, List.<Integer>of());
    pool.allocate("a", ResourceRequest.ofCpus(1)).orElseThrow();
    assertThrows(IllegalArgumentException.class, () -> pool.allocate("a", ResourceRequest.ofCpus(1)));
    pool.checkInvariants();
  }

  @Test
  void canEverFitFollowsTheLargestWorker() {
    assertFalse(pool.canEverFit(ResourceRequest.ofGpus(1)));
    pool.addWorker("w", 0, List.of(0, 1));
    assertTrue(pool.canEverFit(ResourceRequest.ofGpus(2)));
    assertFalse(pool.canEverFit(ResourceRequest.ofGpus(3)));
    assertFalse(pool.canEverFit(ResourceRequest.ofCpus(1)));
    pool.removeWorker("w");
    assertFalse(pool.canEverFit(ResourceRequest.ofGpus(1)));
  }
}
