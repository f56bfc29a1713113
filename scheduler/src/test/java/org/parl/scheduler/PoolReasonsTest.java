package org.parl.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.parl.scheduler.PoolPlacementTest.gpus;
import static org.parl.scheduler.PoolPlacementTest.share;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.parl.internal.resources.Allocation;
import org.parl.internal.resources.ResourceRequest;

/** {@link ResourcePool#neverFits} and {@link ResourcePool#explain}: what users read. */
class PoolReasonsTest {

  private final ResourcePool pool = new ResourcePool();

  private String never(ResourceRequest r) {
    Optional<String> why = pool.neverFits(r);
    assertTrue(why.isPresent(), r + " should never fit");
    assertFalse(pool.canEverFit(r));
    return why.get();
  }

  @Test
  void neverFitsNamesTheLargestWorker() {
    pool.addWorker("w-1", 0, List.of(0));
    pool.addWorker("w-3", 0, List.of(0, 1));
    assertEquals("no worker lends 3 GPUs; the largest worker, w-3, lends 2 GPUs", never(ResourceRequest.ofGpus(3)));
    assertTrue(pool.neverFits(ResourceRequest.ofGpus(2)).isEmpty());
    pool.allocate("busy", ResourceRequest.ofGpus(2)).orElseThrow();
    pool.setWorkerDrained("w-3", true);
    assertTrue(pool.canEverFit(ResourceRequest.ofGpus(2)), "load and service state do not matter");
  }

  @Test
  void neverFitsNamesTheModelsPresent() {
    pool.addWorker("a", 0, gpus("NVIDIA A100-SXM4-40GB", 40_960, 0));
    pool.addWorker("t", 0, gpus("Tesla T4", 15_360, 0));
    assertEquals("no GPU of model H100 is in the pool; models present: NVIDIA A100-SXM4-40GB, Tesla T4",
        never(new ResourceRequest(0, 1, 0, 0, "H100")));
    assertTrue(pool.canEverFit(new ResourceRequest(0, 0, 500, 0, "t4")));
  }

  @Test
  void neverFitsNamesTheLargestGpuMemory() {
    pool.addWorker("a", 0, gpus("A100", 40_960, 0));
    pool.addWorker("t", 0, gpus("T4", 15_360, 0));
    assertEquals("no GPU has 81920 MiB of memory; the largest GPU memory is 40960 MiB",
        never(new ResourceRequest(0, 0, 0, 81_920, null)));
    assertEquals("no GPU of model T4 has 20000 MiB of memory; the largest GPU memory is 15360 MiB",
        never(new ResourceRequest(0, 0, 500, 20_000, "T4")));
  }

  @Test
  void neverFitsSaysWhenNoWorkerLendsCpusOrGpus() {
    assertEquals("no worker is in the pool", never(ResourceRequest.ofCpus(1)));
    pool.addWorker("g", 0, List.of(0, 1));
    assertEquals("no worker lends CPUs", never(ResourceRequest.ofCpus(1)));
    pool.removeWorker("g");
    pool.addWorker("c", 4, List.<Integer>of());
    assertEquals("no worker lends GPUs", never(share(0.5)));
    assertEquals("no worker lends 8 CPUs; the largest worker, c, lends 4 CPUs", never(ResourceRequest.ofCpus(8)));
    pool.addWorker("g", 1, List.of(0));
    assertEquals("no worker with 1 GPU lends 2 CPUs; the largest such worker, g, lends 1 CPU",
        never(new ResourceRequest(2, 1, 0, 0, null)));
  }

  @Test
  void explainGivesOneConstraintPerWorker() {
    pool.addWorker("w-1", 4, List.of(0, 1));
    pool.addWorker("w-2", 4, List.of(0, 1));
    pool.addWorker("w-3", 0, List.of(0, 1));
    pool.addWorker("w-5", 0, gpus("T4", 16_000, 0, 1));
    pool.addWorker("w-6", 0, List.of(0));
    pool.allocate("a", new ResourceRequest(3, 0, 0, 0, null)).orElseThrow();
    pool.setWorkerDrained("w-2", true);
    pool.adopt(new Allocation("b", "w-3", 0, List.of(1)));
    ResourceRequest two = new ResourceRequest(2, 2, 0, 0, null);
    assertEquals(List.of(
        "w-1: 1 of 4 CPUs vacant",
        "w-2: drained",
        "w-3 and w-5: lends no CPUs",
        "w-6: lends 1 GPU, 2 asked"), pool.explain(two, 8));
    ResourceRequest a100 = new ResourceRequest(0, 2, 0, 0, "A100");
    assertEquals(List.of("w-1, w-2 and 3 more: no GPU of model A100"), pool.explain(a100, 8));
    assertEquals(List.of("w-1 and w-5: fits now", "w-3: 1 of 2 GPUs vacant", "w-2: drained", "w-6: lends 1 GPU, 2 asked"),
        pool.explain(ResourceRequest.ofGpus(2), 8));
    assertEquals(List.of("w-1 and w-5: fits now", "3 more workers stopped by other constraints"),
        pool.explain(ResourceRequest.ofGpus(2), 2));
  }

  @Test
  void explainNamesSharesMemoryAndServiceStates() {
    pool.addWorker("w-4", 0, gpus("T4", 16_000, 0));
    pool.addWorker("w-7", 0, gpus("A100", 40_000, 0));
    pool.addWorker("w-8", 0, gpus("A100", 40_000, 0, 1));
    pool.adopt(new Allocation("half", "w-4", 0, List.of(0), 500, 0));
    pool.adopt(new Allocation("budget", "w-7", 0, List.of(0), 100, 38_000));
    pool.setGpuQuarantined("w-8", 0, true);
    pool.setGpuDrained("w-8", 1, true);
    List<String> lines = pool.explain(new ResourceRequest(0, 0, 750, 8_192, null), 8);
    assertEquals(List.of(
        "w-4: 0.5 of a GPU free at most, 0.75 asked",
        "w-7: 2000 MiB of GPU memory free on its best GPU, 8192 MiB asked",
        "w-8: its GPUs with at least 8192 MiB are drained or quarantined"), lines);
    assertEquals("w-8: 0 of 2 GPUs vacant, 2 drained or quarantined", pool.explain(ResourceRequest.ofGpus(2), 8).get(0));
    assertEquals("w-4: its largest GPU has 16000 MiB of memory, 20000 MiB asked",
        pool.explain(new ResourceRequest(0, 0, 0, 20_000, null), 8).get(2));
    assertEquals("w-4 and w-7: fits now", pool.explain(share(0.5), 8).get(0));
  }

  @Test
  void explainGroupsAThousandAlikeWorkersIntoAFewLines() {
    for (int i = 0; i < 1_000; i++) {
      pool.addWorker("w-" + i, 8, List.of(0, 1));
    }
    for (int i = 0; i < 999; i++) {
      pool.adopt(new Allocation("j" + i, "w-" + i, 1, List.of(0)));
    }
    for (int i = 990; i < 1_000; i++) {
      pool.setWorkerDrained("w-" + i, true);
    }
    ResourceRequest two = ResourceRequest.ofGpus(2);
    long start = System.nanoTime();
    List<String> lines = pool.explain(two, 8);
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertEquals(List.of("w-0, w-1 and 988 more: 1 of 2 GPUs vacant", "w-990, w-991 and 8 more: drained"), lines);
    assertTrue(millis < 200, "explain took " + millis + " ms for 1000 workers");
    List<String> one = pool.explain(two, 1);
    assertEquals(List.of(lines.get(0)), one, "one line: the closest group alone");

    assertThrows(IllegalArgumentException.class, () -> pool.explain(two, 0));
  }
}
