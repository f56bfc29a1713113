package org.parl.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.parl.internal.resources.Allocation;
import org.parl.internal.resources.ResourceRequest;
import org.parl.scheduler.Scheduler.Reason;
import org.parl.scheduler.Scheduler.ReasonClass;

class SchedulerTest {

  private final AtomicInteger ids = new AtomicInteger();
  private final ResourcePool pool = new ResourcePool();
  private final Scheduler<String> scheduler = new Scheduler<>(pool, () -> "j" + ids.incrementAndGet());

  @Test
  void waitingRequestsAreServedInArrivalOrder() {
    pool.addWorker("w", 0, List.of(0, 1));
    Allocation first = scheduler.submit(ResourceRequest.ofGpus(2), "first").allocation().orElseThrow();
    assertTrue(scheduler.submit(ResourceRequest.ofGpus(2), "big").allocation().isEmpty());
    assertTrue(scheduler.submit(ResourceRequest.ofGpus(1), "small").allocation().isEmpty(),
        "a later request does not overtake a waiting one");
    pool.release(first.jobId());
    List<Scheduler.Grant<String>> grants = scheduler.drain();
    assertEquals(List.of("big"), grants.stream().map(Scheduler.Grant::ticket).toList());
    pool.release(grants.get(0).allocation().jobId());
    assertEquals(List.of("small"), scheduler.drain().stream().map(Scheduler.Grant::ticket).toList());
    pool.checkInvariants();
  }

  @Test
  void requestsNoWorkerCanHoldDoNotBlockOthers() {
    pool.addWorker("w", 0, List.of(0, 1));
    assertTrue(scheduler.submit(ResourceRequest.ofGpus(4), "huge").allocation().isEmpty());
    assertTrue(scheduler.submit(ResourceRequest.ofGpus(1), "small").allocation().isPresent());
    pool.addWorker("w4", 0, List.of(0, 1, 2, 3));
    List<Scheduler.Grant<String>> grants = scheduler.drain();
    assertEquals("huge", grants.get(0).ticket());
    assertEquals("w4", grants.get(0).allocation().workerId());
    pool.checkInvariants();
  }

  @Test
  void cancelledRequestsAreNeverGranted() {
    pool.addWorker("w", 1, List.<Integer>of());
    Allocation a = scheduler.submit(ResourceRequest.ofCpus(1), "a").allocation().orElseThrow();
    long waiting = scheduler.submit(ResourceRequest.ofCpus(1), "b").requestId();
    assertEquals("b", scheduler.cancel(waiting).orElseThrow());
    assertTrue(scheduler.cancel(waiting).isEmpty());
    pool.release(a.jobId());
    assertTrue(scheduler.drain().isEmpty());
    assertEquals(0, scheduler.waitingCount());
  }

  @Test
  void aBigRequestIsPlacedWhenTheJobsOnItsReservedWorkerEnd() {
    pool.addWorker("a", 0, List.of(0, 1));
    pool.addWorker("b", 0, List.of(0, 1));
    Deque<Allocation> onA = new ArrayDeque<>();
    onA.add(scheduler.submit(ResourceRequest.ofGpus(1), "x1").allocation().orElseThrow());
    onA.add(scheduler.submit(ResourceRequest.ofGpus(1), "x2").allocation().orElseThrow());
    Allocation onB = scheduler.submit(ResourceRequest.ofGpus(1), "x3").allocation().orElseThrow();
    assertEquals(List.of("a", "a", "b"), List.of(onA.getFirst().workerId(), onA.getLast().workerId(), onB.workerId()));
    long big = scheduler.submit(ResourceRequest.ofGpus(2), "big").requestId();
    assertEquals("b", scheduler.reservedWorker(big).orElseThrow(), "the worker with the most vacant GPUs");
    // A stream of 1-GPU requests: each finds b's vacant GPU reserved, so all of them run on a.
    for (int i = 0; i < 50; i++) {
      Scheduler.Submitted s = scheduler.submit(ResourceRequest.ofGpus(1), "s" + i);
      s.allocation().ifPresent(a -> {
        assertEquals("a", a.workerId());
        onA.add(a);
      });
      pool.release(onA.removeFirst().jobId());
      for (Scheduler.Grant<String> g : scheduler.drain()) {
        assertFalse(g.ticket().equals("big"), "big waits for x3, the job on b");
        assertEquals("a", g.allocation().workerId(), g.ticket() + " must not take b's GPU");
        onA.add(g.allocation());
      }
      assertEquals(Set.of(onB.jobId()), pool.worker("b").orElseThrow().jobs());
      pool.checkInvariants();
    }
    pool.release(onB.jobId());
    List<Scheduler.Grant<String>> grants = scheduler.drain();
    assertEquals("big", grants.get(0).ticket(), "placed as soon as the job running on b at reservation time ended");
    assertEquals("b", grants.get(0).allocation().workerId());
    pool.checkInvariants();
  }

  @Test
  void smallRequestsAreNotHeldBackByABigOneThatCanNeverFit() {
    pool.addWorker("w", 0, List.of(0, 1));
    long huge = scheduler.submit(ResourceRequest.ofGpus(3), "huge").requestId();
    assertTrue(scheduler.reservedWorker(huge).isEmpty(), "it reserves nothing");
    Allocation a = scheduler.submit(ResourceRequest.ofGpus(1), "a").allocation().orElseThrow();
    assertTrue(scheduler.submit(ResourceRequest.ofGpus(1), "b").allocation().isPresent());
    assertTrue(scheduler.submit(ResourceRequest.ofGpus(1), "c").allocation().isEmpty());
    pool.release(a.jobId());
    assertEquals(List.of("c"), scheduler.drain().stream().map(Scheduler.Grant::ticket).toList());
    assertEquals(ReasonClass.NO_WORKER, scheduler.reason(huge).orElseThrow().kind());
  }

  @Test
  void aReservationMovesOnlyWhenItsWorkerLeavesAndAnotherFitsAtOnce() {
    pool.addWorker("a", 0, List.of(0, 1));
    pool.addWorker("b", 0, List.of(0, 1));
    pool.adopt(new Allocation("x", "a", 0, List.of(0)));
    pool.adopt(new Allocation("y", "b", 0, List.of(0)));
    long big = scheduler.submit(ResourceRequest.ofGpus(2), "big").requestId();
    String first = scheduler.reservedWorker(big).orElseThrow();
    scheduler.drain();
    assertEquals(first, scheduler.reservedWorker(big).orElseThrow(), "sticky");
    pool.removeWorker(first);
    scheduler.drain();
    String second = scheduler.reservedWorker(big).orElseThrow();
    assertFalse(second.equals(first), "its worker left, so it reserves another");
    pool.addWorker("c", 0, List.of(0, 1));
    List<Scheduler.Grant<String>> grants = scheduler.drain();
    assertEquals("c", grants.get(0).allocation().workerId(), "a worker that fits now takes it at once");
    assertEquals(0, scheduler.waitingCount());
  }

  @Test
  void dropNeverFittingKeepsTheRequestsThatChoseToWait() {
    pool.addWorker("w4", 0, List.of(0, 1, 2, 3));
    pool.addWorker("w2", 0, List.of(0, 1));
    Allocation busy = scheduler.submit(ResourceRequest.ofGpus(4), "busy").allocation().orElseThrow();
    scheduler.submit(ResourceRequest.ofGpus(4), "drop");
    scheduler.submit(ResourceRequest.ofGpus(4), "keep");
    assertTrue(scheduler.submit(ResourceRequest.ofGpus(2), "fits").allocation().isPresent(), "w2 is reserved by nobody");
    assertTrue(scheduler.dropNeverFitting(t -> false).isEmpty(), "w4 could hold them once busy ends");
    pool.removeWorker("w4");
    assertTrue(pool.release(busy.jobId()).isEmpty());
    List<Scheduler.Waiting<String>> dropped = scheduler.dropNeverFitting(t -> t.equals("keep"));
    assertEquals(List.of("drop"), dropped.stream().map(Scheduler.Waiting::ticket).toList());
    assertEquals(List.of("keep"), scheduler.waiting().stream().map(Scheduler.Waiting::ticket).toList());
  }

  @Test
  void reasonsNameTheQueueTheLoadAndThePool() {
    pool.addWorker("w", 0, List.of(0, 1));
    scheduler.submit(ResourceRequest.ofGpus(1), "running").allocation().orElseThrow();
    long big = scheduler.submit(ResourceRequest.ofGpus(2), "big").requestId();
    long small = scheduler.submit(ResourceRequest.ofGpus(1), "small").requestId();
    long never = scheduler.submit(new ResourceRequest(0, 1, 0, 0, "H100"), "never").requestId();
    Reason r = scheduler.reason(big).orElseThrow();
    assertEquals(0, r.ahead());
    assertEquals(ReasonClass.BUSY, r.kind());
    assertEquals("no worker can hold 2 GPUs now (w: 1 of 2 GPUs vacant)", r.summary());
    assertEquals(List.of("w: 1 of 2 GPUs vacant"), r.details());
    r = scheduler.reason(small).orElseThrow();
    assertEquals(1, r.ahead());
    assertEquals(ReasonClass.QUEUED, r.kind());
    assertEquals("it fits now only on workers reserved for earlier requests (1 request waiting ahead of it)", r.summary());
    r = scheduler.reason(never).orElseThrow();
    assertEquals(ReasonClass.MODEL, r.kind());
    assertEquals("no GPU of model H100 is in the pool; models present: none reported", r.summary());
    assertTrue(scheduler.reason(12345).isEmpty());
  }

  @Test
  void reasonsNameMemoryAndServiceStates() {
    pool.addWorker("t4", 0, PoolPlacementTest.gpus("T4", 16_000, 0));
    pool.adopt(new Allocation("budget", "t4", 0, List.of(0), 0, 10_000));
    long memory = scheduler.submit(new ResourceRequest(0, 0, 0, 8_000, null), "m").requestId();
    assertEquals(ReasonClass.MEMORY, scheduler.reason(memory).orElseThrow().kind());
    long tooBig = scheduler.submit(new ResourceRequest(0, 0, 0, 20_000, null), "m2").requestId();
    assertEquals(ReasonClass.MEMORY, scheduler.reason(tooBig).orElseThrow().kind());
    pool.addWorker("w", 0, List.of(0));
    pool.setWorkerDrained("w", true);
    long drained = scheduler.submit(ResourceRequest.ofGpus(1), "d").requestId();
    Reason r = scheduler.reason(drained).orElseThrow();
    assertEquals(ReasonClass.BUSY, r.kind(), "busy somewhere: it may fit once a job ends");
    assertEquals(List.of("t4: 0 of 1 GPU vacant", "w: drained"), r.details());
    pool.setWorkerDrained("w", false);
    assertEquals(List.of("d"), scheduler.drain().stream().map(Scheduler.Grant::ticket).toList());
  }

  @Test
  void reasonIsOutOfServiceWhenEveryWorkerThatCouldHoldItIsOut() {
    pool.addWorker("w", 0, List.of(0, 1));
    pool.addWorker("v", 0, List.of(0));
    pool.setGpuQuarantined("w", 1, true);
    pool.setWorkerDrained("v", true);
    long two = scheduler.submit(ResourceRequest.ofGpus(2), "two").requestId();
    Reason r = scheduler.reason(two).orElseThrow();
    assertEquals(ReasonClass.OUT_OF_SERVICE, r.kind());
    assertEquals(List.of("w: 1 of 2 GPUs vacant, 1 drained or quarantined", "v: lends 1 GPU, 2 asked"), r.details());
    pool.setGpuQuarantined("w", 1, false);
    assertEquals(List.of("two"), scheduler.drain().stream().map(Scheduler.Grant::ticket).toList());
  }

  @Test
  void reasonClassesAreTheKindsOfTheReasonsAsThePoolChanges() {
    pool.addWorker("w", 0, List.of(0, 1));
    scheduler.submit(ResourceRequest.ofGpus(1), "running").allocation().orElseThrow();
    List<Long> ids = List.of(scheduler.submit(ResourceRequest.ofGpus(2), "big").requestId(),
        scheduler.submit(ResourceRequest.ofGpus(1), "small").requestId(),
        scheduler.submit(new ResourceRequest(0, 1, 0, 0, "H100"), "never").requestId());
    assertEquals(List.of(ReasonClass.BUSY, ReasonClass.QUEUED, ReasonClass.MODEL), scheduler.reasonClasses(8));
    assertEquals(List.of(ReasonClass.BUSY, ReasonClass.QUEUED), scheduler.reasonClasses(2), "the first ones only");
    pool.setWorkerDrained("w", true);
    List<ReasonClass> classes = scheduler.reasonClasses(8);
    assertEquals(List.of(ReasonClass.OUT_OF_SERVICE, ReasonClass.OUT_OF_SERVICE, ReasonClass.MODEL), classes,
        "worked out again once the pool changed");
    assertEquals(ids.stream().map(id -> scheduler.reason(id).orElseThrow().kind()).toList(), classes);
  }
}
