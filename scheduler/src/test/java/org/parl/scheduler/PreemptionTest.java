package org.parl.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.parl.internal.resources.ResourceRequest;

/** Which jobs a waiting request of higher priority preempts, and that the search leaves the pool as it was. */
class PreemptionTest {

  private final ResourcePool pool = new ResourcePool();
  private int next;
  private final Scheduler<String> scheduler = new Scheduler<>(pool, () -> "job-" + (++next));
  private final Map<String, Integer> priorities = new HashMap<>();
  private final Preemptible jobs = new Preemptible() {
    @Override
    public int priorityOf(String jobId) {
      return priorities.getOrDefault(jobId, -1);
    }

    @Override
    public long startOrder(String jobId) {
      return Long.parseLong(jobId.substring(4));
    }
  };

  /** Runs a job of {@code gpus} GPUs at {@code priority} (negative: never preempted). */
  private String run(int gpus, int priority) {
    String id = scheduler.submit(ResourceRequest.ofGpus(gpus), priority, "run").allocation().orElseThrow().jobId();
    priorities.put(id, priority);
    return id;
  }

  private void twoWorkers() {
    pool.addWorker("w-1", 0, List.of(0, 1));
    pool.addWorker("w-2", 0, List.of(0, 1));
  }

  @Test
  void theFewestVictimsOfTheLowestPriorityOnOneWorkerYoungestFirst() {
    twoWorkers();
    String a = run(1, 0);
    String b = run(1, 5);
    String c = run(1, 0);
    String d = run(1, 0);
    List<WorkerView> before = pool.workers();
    long id = scheduler.submit(ResourceRequest.ofGpus(2), 10, true, "big").requestId();
    List<Scheduler.Preemption<String>> p = scheduler.takePreemptions(jobs);
    assertEquals(1, p.size());
    String onW2 = pool.worker("w-2").orElseThrow().jobs().contains(c) ? "w-2" : "w-1";
    assertEquals(onW2, p.get(0).workerId(), "the worker whose victims are all of priority 0");
    assertEquals(List.of(d, c), p.get(0).victims(), "youngest first");
    assertEquals(id, p.get(0).requestId());
    assertEquals(before, pool.workers(), "the search leaves the pool exactly as it was");
    pool.checkInvariants();

    assertEquals(List.of(), scheduler.takePreemptions(jobs), "no second search while its victims still hold their GPUs");
    pool.release(d);
    assertEquals(List.of(), scheduler.drain(), "half freed: still waiting, and nobody else gets the GPU");
    assertEquals(0, scheduler.submit(ResourceRequest.ofGpus(1), 0, "small").allocation().stream().count(),
        "a later request does not take what the preemption frees");
    pool.release(c);
    List<Scheduler.Grant<String>> granted = scheduler.drain();
    assertEquals("big", granted.get(0).ticket());
    assertEquals(onW2, granted.get(0).allocation().workerId());
    pool.checkInvariants();
    assertTrue(pool.holds(a) && pool.holds(b));
  }

  @Test
  void equalOrHigherPrioritiesAndProtectedJobsAreNeverVictims() {
    twoWorkers();
    run(2, 10);
    run(1, -1); // a placement group's bundle, say
    run(1, 3);
    scheduler.submit(ResourceRequest.ofGpus(2), 10, true, "peer");
    assertEquals(List.of(), scheduler.takePreemptions(jobs), "equal priority, or a protected job beside a lower one");
    long one = scheduler.submit(ResourceRequest.ofGpus(1), 10, true, "one").requestId();
    List<Scheduler.Preemption<String>> p = scheduler.takePreemptions(jobs);
    assertEquals(1, p.size());
    assertEquals(one, p.get(0).requestId());
    assertEquals(1, p.get(0).victims().size());
    assertEquals(3, priorities.get(p.get(0).victims().get(0)));
    pool.checkInvariants();
  }

  @Test
  void aRequestThatDoesNotAskNeverPreemptsAndOneThatFitsNeedsNone() {
    twoWorkers();
    run(2, 0);
    run(1, 0);
    assertTrue(scheduler.submit(ResourceRequest.ofGpus(1), 50, true, "fits").allocation().isPresent());
    scheduler.submit(ResourceRequest.ofGpus(2), 50, "polite");
    assertEquals(List.of(), scheduler.takePreemptions(jobs));
    pool.checkInvariants();
  }
}
