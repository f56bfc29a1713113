package org.parl.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.parl.PlacementStrategy;
import org.parl.internal.resources.Allocation;
import org.parl.internal.resources.ResourceRequest;

/** One queue ordered by priority, then arrival, for single requests and groups alike. */
class PriorityTest {

  private final AtomicInteger ids = new AtomicInteger();
  private final ResourcePool pool = new ResourcePool();
  private final Scheduler<String> scheduler = new Scheduler<>(pool, () -> "j" + ids.incrementAndGet());

  private List<String> drained() {
    List<String> tickets = scheduler.drain().stream().map(Scheduler.Grant::ticket).toList();
    pool.checkInvariants();
    return tickets;
  }

  @Test
  void higherPriorityIsServedFirst() {
    pool.addWorker("w", 1, List.<Integer>of());
    Allocation busy = scheduler.submit(ResourceRequest.ofCpus(1), "busy").allocation().orElseThrow();
    scheduler.submit(ResourceRequest.ofCpus(1), 0, "low");
    scheduler.submitGroup(GroupPlacementTest.group(PlacementStrategy.PACK, ResourceRequest.ofCpus(1)), 5, "group");
    scheduler.submit(ResourceRequest.ofCpus(1), 9, "high");
    assertEquals(List.of("high", "group", "low"), scheduler.waiting().stream().map(Scheduler.Waiting::ticket).toList());
    assertEquals(List.of(9, 5, 0), scheduler.waiting().stream().map(Scheduler.Waiting::priority).toList());
    pool.release(busy.jobId());
    List<Scheduler.Grant<String>> grants = scheduler.drain();
    assertEquals("high", grants.get(0).ticket());
    pool.release(grants.get(0).allocation().jobId());
    grants = scheduler.drain();
    assertEquals("group", grants.get(0).ticket());
    pool.release(grants.get(0).allocation().jobId());
    assertEquals(List.of("low"), drained());
  }

  @Test
  void samePriorityIsServedInArrivalOrder() {
    pool.addWorker("w", 1, List.<Integer>of());
    Allocation busy = scheduler.submit(ResourceRequest.ofCpus(1), 3, "busy").allocation().orElseThrow();
    scheduler.submit(ResourceRequest.ofCpus(1), 3, "first");
    scheduler.submit(ResourceRequest.ofCpus(1), 3, "second");
    scheduler.submit(ResourceRequest.ofCpus(1), -2, "negative");
    scheduler.submit(ResourceRequest.ofCpus(1), 3, "third");
    assertEquals(List.of("first", "second", "third", "negative"),
        scheduler.waiting().stream().map(Scheduler.Waiting::ticket).toList());
    String job = busy.jobId();
    for (String expected : List.of("first", "second", "third", "negative")) {
      pool.release(job);
      List<Scheduler.Grant<String>> grants = scheduler.drain();
      assertEquals(List.of(expected), grants.stream().map(Scheduler.Grant::ticket).toList());
      job = grants.get(0).allocation().jobId();
      pool.checkInvariants();
    }
  }

  @Test
  void reasonsCountTheEntriesAheadInPriorityOrder() {
    pool.addWorker("w", 0, List.of(0));
    scheduler.submit(ResourceRequest.ofGpus(1), "busy").allocation().orElseThrow();
    long low = scheduler.submit(ResourceRequest.ofGpus(1), 0, "low").requestId();
    long mid = scheduler.submitGroup(GroupPlacementTest.gpus(PlacementStrategy.STRICT_SPREAD, 1), 1, "mid").requestId();
    long high = scheduler.submit(ResourceRequest.ofGpus(1), 2, "high").requestId();
    assertEquals(0, scheduler.reason(high).orElseThrow().ahead());
    assertEquals(1, scheduler.reason(mid).orElseThrow().ahead());
    assertEquals(2, scheduler.reason(low).orElseThrow().ahead());
    assertEquals("bundle 0 (1 GPU) does not fit now: w: 0 of 1 GPU vacant", scheduler.reason(mid).orElseThrow().summary());
  }

  @Test
  void aHighPriorityNewcomerMayUseAndTakeWorkersReservedByLowerPriorities() {
    pool.addWorker("a", 0, List.of(0, 1));
    pool.adopt(new Allocation("x", "a", 0, List.of(0)));
    long big = scheduler.submit(ResourceRequest.ofGpus(2), 0, "big").requestId();
    assertEquals("a", scheduler.reservedWorker(big).orElseThrow());
    assertTrue(scheduler.submit(ResourceRequest.ofGpus(1), 0, "same").allocation().isEmpty(), "a is reserved for big");
    Allocation urgent = scheduler.submit(ResourceRequest.ofGpus(1), 5, "urgent").allocation().orElseThrow();
    assertEquals("a", urgent.workerId(), "big is behind it");
    pool.checkInvariants();
    pool.release(urgent.jobId());
    long urgentBig = scheduler.submit(ResourceRequest.ofGpus(2), 5, "urgentBig").requestId();
    assertEquals("a", scheduler.reservedWorker(urgentBig).orElseThrow());
    assertTrue(scheduler.reservedWorker(big).isEmpty(), "taken by the entry ahead of it");
    pool.release("x");
    assertEquals(List.of("urgentBig"), drained());
  }

  @Test
  void cancelledAndTimedOutEntriesFreeTheirReservations() {
    pool.addWorker("a", 0, List.of(0, 1));
    pool.addWorker("b", 0, List.of(0, 1));
    pool.adopt(new Allocation("x", "a", 0, List.of(0)));
    pool.adopt(new Allocation("y", "b", 0, List.of(0)));
    long group = scheduler.submitGroup(GroupPlacementTest.gpus(PlacementStrategy.STRICT_SPREAD, 2, 2), 7, "group").requestId();
    assertEquals(2, scheduler.reservedWorkers(group).size());
    assertTrue(scheduler.submit(ResourceRequest.ofGpus(1), 7, "small").allocation().isEmpty(), "a and b are reserved");
    long late = scheduler.submit(ResourceRequest.ofGpus(1), 1, "late").requestId();
    assertEquals("group", scheduler.cancel(group).orElseThrow());
    assertTrue(scheduler.cancel(group).isEmpty());
    assertTrue(scheduler.reservedWorkers(group).isEmpty());
    assertEquals(List.of("small", "late"), drained());
    assertTrue(scheduler.reason(late).isEmpty());
    long timedOut = scheduler.submitGroup(GroupPlacementTest.gpus(PlacementStrategy.PACK, 2), 0, "timed out").requestId();
    assertEquals(List.of("timed out"), scheduler.cancelIf(t -> t.startsWith("timed")));
    assertTrue(scheduler.reason(timedOut).isEmpty());
    assertEquals(0, scheduler.waitingCount());
    pool.checkInvariants();
  }
}
