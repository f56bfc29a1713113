package org.parl.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

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
}
