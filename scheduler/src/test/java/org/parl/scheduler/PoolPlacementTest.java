package org.parl.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.parl.internal.resources.Allocation;
import org.parl.internal.resources.ResourceRequest;

/** Shares, budgets, models, mixed workers and service states. */
class PoolPlacementTest {

  private final ResourcePool pool = new ResourcePool();

  static ResourceRequest share(double gpus) {
    return ResourceRequest.of(0, gpus, 0, null, 0);
  }

  static List<GpuSpec> gpus(String model, long memoryMb, int... indexes) {
    List<GpuSpec> list = new ArrayList<>();
    for (int i : indexes) {
      list.add(new GpuSpec(i, "GPU-" + model + "-" + memoryMb + "-" + i, model, memoryMb));
    }
    return list;
  }

  @Test
  void fourQuartersFillOneGpuExactlyAndAFifthWaits() {
    pool.addWorker("w", 0, List.of(0));
    for (int i = 0; i < 4; i++) {
      Allocation a = pool.allocate("q" + i, share(0.25)).orElseThrow();
      assertEquals(List.of(0), a.gpus());
      assertEquals(250, a.gpuShare());
      pool.checkInvariants();
    }
    assertTrue(pool.allocate("q4", share(0.25)).isEmpty(), "a fifth quarter does not fit");
    WorkerView v = pool.worker("w").orElseThrow();
    assertEquals(1000, v.gpuLoads().get(0).shareUsed());
    assertEquals(List.of(0), v.usedGpus());
    assertEquals(List.of(), v.vacantGpus());
    pool.release("q2");
    assertEquals("w", pool.allocate("q4", share(0.25)).orElseThrow().workerId());
    pool.checkInvariants();
  }

  @Test
  void tenSharesOfSixTenthsOnSixteenOneGpuWorkers() {
    for (int i = 0; i < 16; i++) {
      pool.addWorker("w" + i, 0, List.of(0));
    }
    Set<String> used = new HashSet<>();
    for (int i = 0; i < 10; i++) {
      Allocation a = pool.allocate("j" + i, share(0.6)).orElseThrow(); // ray#20933
      assertTrue(used.add(a.workerId()), "two 0.6 shares never meet on one GPU");
    }
    pool.checkInvariants();
  }

  @Test
  void tenSharesOfSixTenthsOnOneSixteenGpuWorker() {
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      ids.add(i);
    }
    pool.addWorker("w", 0, ids);
    Set<Integer> used = new HashSet<>();
    for (int i = 0; i < 10; i++) {
      Allocation a = pool.allocate("j" + i, share(0.6)).orElseThrow();
      assertEquals(1, a.gpus().size(), "a share never spans GPUs");
      assertTrue(used.add(a.gpus().get(0)));
    }
    assertEquals(6, pool.worker("w").orElseThrow().vacantGpus().size());
    pool.checkInvariants();
  }

  @Test
  void sharesPackOnThePartlyUsedGpuAndWholeGpusStayFree() {
    pool.addWorker("a", 0, List.of(0, 1));
    pool.addWorker("b", 0, List.of(0, 1));
    Allocation first = pool.allocate("s1", share(0.5)).orElseThrow();
    Allocation second = pool.allocate("s2", share(0.25)).orElseThrow();
    assertEquals(first.workerId(), second.workerId());
    assertEquals(first.gpus(), second.gpus(), "the partly used GPU takes the next share");
    Allocation third = pool.allocate("s3", share(0.5)).orElseThrow();
    assertTrue(!third.gpus().equals(first.gpus()) || !third.workerId().equals(first.workerId()));
    Allocation fourth = pool.allocate("s4", share(0.25)).orElseThrow();
    assertEquals(first.gpus(), fourth.gpus(), "0.25 free on the first GPU is the tightest fit");
    assertEquals(first.workerId(), fourth.workerId());
    Allocation whole = pool.allocate("w2", ResourceRequest.ofGpus(2)).orElseThrow();
    assertFalse(whole.workerId().equals(first.workerId()), "whole GPUs go where no share was placed");
    pool.checkInvariants();
  }

  @Test
  void wholeGpusNeverGoWhereAShareOrBudgetIs() {
    pool.addWorker("w", 0, gpus("A100", 40_000, 0, 1));
    pool.allocate("s", new ResourceRequest(0, 0, 0, 1_000, null)).orElseThrow();
    assertTrue(pool.allocate("two", ResourceRequest.ofGpus(2)).isEmpty());
    Allocation one = pool.allocate("one", ResourceRequest.ofGpus(1)).orElseThrow();
    assertEquals(1, one.gpus().size());
    assertTrue(pool.allocate("share", share(0.1)).isPresent(), "the GPU with a budget alone still takes a share");
    pool.checkInvariants();
  }

  @Test
  void budgetsFitInTheGpusFreeMemory() {
    pool.addWorker("w", 0, gpus("T4", 16_000, 0));
    pool.addWorker("unknown", 0, List.of(0));
    ResourceRequest tenGb = new ResourceRequest(0, 0, 250, 10_000, null);
    Allocation a = pool.allocate("a", tenGb).orElseThrow();
    assertEquals("w", a.workerId());
    assertEquals(10_000, a.gpuMemoryMb());
    assertTrue(pool.allocate("b", tenGb).isEmpty(), "6000 MiB left, and a GPU of unknown memory takes no budget");
    Allocation c = pool.allocate("c", new ResourceRequest(0, 0, 0, 6_000, null)).orElseThrow();
    assertEquals(0, c.gpuShare());
    assertEquals(16_000, pool.worker("w").orElseThrow().gpuLoads().get(0).memoryBudgetMb());
    assertTrue(pool.allocate("d", new ResourceRequest(0, 1, 0, 1, null)).isEmpty());
    assertTrue(pool.allocate("e", share(0.5)).isPresent(), "a share without budget still fits beside budgets");
    pool.release("a");
    assertTrue(pool.allocate("b", tenGb).isPresent());
    pool.checkInvariants();
  }

  @Test
  void wholeGpusWithABudgetNeedThatMuchMemoryEach() {
    pool.addWorker("small", 0, gpus("T4", 16_000, 0, 1));
    pool.addWorker("big", 0, gpus("A100", 80_000, 0, 1));
    Allocation a = pool.allocate("a", new ResourceRequest(0, 2, 0, 30_000, null)).orElseThrow();
    assertEquals("big", a.workerId());
    assertEquals(30_000, pool.worker("big").orElseThrow().gpuLoads().get(1).memoryBudgetMb());
    pool.checkInvariants();
  }

  @Test
  void modelsAreMatchedByNameIgnoringCase() {
    pool.addWorker("t4", 0, gpus("Tesla T4", 16_000, 0, 1));
    pool.addWorker("a100", 0, gpus("NVIDIA A100-SXM4-40GB", 40_000, 0, 1, 2, 3));
    assertEquals("a100", pool.allocate("a", new ResourceRequest(0, 1, 0, 0, "a100")).orElseThrow().workerId());
    assertEquals("t4", pool.allocate("b", new ResourceRequest(0, 0, 500, 0, "T4")).orElseThrow().workerId());
    assertTrue(pool.allocate("c", new ResourceRequest(0, 3, 0, 0, "T4")).isEmpty());
    assertTrue(pool.allocate("d", new ResourceRequest(0, 1, 0, 0, "H100")).isEmpty());
    pool.checkInvariants();
  }

  @Test
  void cpuRequestsPreferTheWorkerWithoutVacantGpus() {
    pool.addWorker("gpu-host", 8, List.of(0, 1));
    pool.addWorker("cpu-host", 16, List.<Integer>of());
    assertEquals("cpu-host", pool.allocate("c1", ResourceRequest.ofCpus(2)).orElseThrow().workerId(),
        "best fit alone would pick the GPU host (8 CPUs vacant); the CPU-only host is preferred");
    assertEquals("cpu-host", pool.allocate("c2", ResourceRequest.ofCpus(14)).orElseThrow().workerId());
    assertEquals("gpu-host", pool.allocate("c3", ResourceRequest.ofCpus(1)).orElseThrow().workerId(),
        "only when no worker without vacant GPUs fits");
    Allocation g = pool.allocate("g", new ResourceRequest(2, 2, 0, 0, null)).orElseThrow();
    assertEquals("gpu-host", g.workerId());
    assertEquals(2, g.cpus());
    pool.checkInvariants();
  }

  @Test
  void aGpuActorTakesItsCpusOnTheSameWorker() {
    pool.addWorker("few-cpus", 1, List.of(0));
    pool.addWorker("many-cpus", 8, List.of(0));
    assertEquals("many-cpus", pool.allocate("g", new ResourceRequest(4, 1, 0, 0, null)).orElseThrow().workerId());
    assertEquals("few-cpus", pool.allocate("s", new ResourceRequest(1, 0, 500, 0, null)).orElseThrow().workerId());
    assertTrue(pool.allocate("t", new ResourceRequest(2, 0, 500, 0, null)).isEmpty(), "few-cpus has no CPU left");
    pool.checkInvariants();
  }

  @Test
  void drainedAndQuarantinedGpusTakeNothingNewButKeepTheirJobs() {
    pool.addWorker("w", 4, List.of(0, 1, 2));
    Allocation held = pool.allocate("held", ResourceRequest.ofGpus(1)).orElseThrow();
    assertEquals(List.of(0), held.gpus());
    pool.setGpuDrained("w", 1, true);
    List<Allocation> holders = pool.setGpuQuarantined("w", 0, true);
    assertEquals(List.of(held), holders);
    WorkerView v = pool.worker("w").orElseThrow();
    assertEquals(List.of(2), v.vacantGpus());
    assertEquals(List.of(0), v.usedGpus());
    assertEquals(List.of(1), v.outOfServiceGpus());
    assertTrue(v.gpuLoads().get(0).quarantined());
    assertTrue(v.gpuLoads().get(1).drained());
    assertTrue(pool.allocate("two", ResourceRequest.ofGpus(2)).isEmpty());
    assertEquals(List.of(2), pool.allocate("one", ResourceRequest.ofGpus(1)).orElseThrow().gpus());
    assertTrue(pool.allocate("share", share(0.5)).isEmpty(), "no share on a drained or quarantined GPU");
    pool.release("held");
    assertEquals(List.of(0, 1), pool.worker("w").orElseThrow().outOfServiceGpus());
    pool.setGpuDrained("w", 1, false);
    pool.setGpuQuarantined("w", 0, false);
    assertEquals(List.of(0, 1), pool.worker("w").orElseThrow().vacantGpus());
    pool.checkInvariants();
  }

  @Test
  void aDrainedWorkerListsItsIdleGpusOutOfServiceAndTakesNothingNew() {
    pool.addWorker("w", 4, List.of(0, 1));
    pool.addWorker("other", 2, List.<Integer>of());
    pool.allocate("g", ResourceRequest.ofGpus(1)).orElseThrow();
    pool.setWorkerDrained("w", true);
    WorkerView v = pool.worker("w").orElseThrow();
    assertTrue(v.drained());
    assertEquals(List.of(), v.vacantGpus());
    assertEquals(List.of(0), v.usedGpus());
    assertEquals(List.of(1), v.outOfServiceGpus());
    assertTrue(pool.allocate("x", ResourceRequest.ofGpus(1)).isEmpty());
    assertTrue(pool.allocate("y", share(0.5)).isEmpty());
    assertEquals("other", pool.allocate("z", ResourceRequest.ofCpus(2)).orElseThrow().workerId());
    assertTrue(pool.allocate("c", ResourceRequest.ofCpus(1)).isEmpty());
    pool.checkInvariants();
    pool.setWorkerDrained("w", false);
    assertEquals("w", pool.allocate("x", ResourceRequest.ofGpus(1)).orElseThrow().workerId());
    pool.checkInvariants();
  }

  @Test
  void serviceStatesNameTheUnknownWorkerOrGpu() {
    pool.addWorker("w", 0, List.of(0));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> pool.setWorkerDrained("nope", true));
    assertTrue(e.getMessage().contains("nope"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> pool.setGpuDrained("w", 3, true));
    assertTrue(e.getMessage().contains("GPU 3"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> pool.setGpuQuarantined("x", 0, true));
    assertTrue(e.getMessage().contains("x"), e.getMessage());
  }

  @Test
  void workersWithRepeatedGpuIndexesOrUuidsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> pool.addWorker("w", 0,
        List.of(new GpuSpec(0, "GPU-a", "T4", 1), new GpuSpec(0, "GPU-b", "T4", 1))));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> pool.addWorker("w", 0,
        List.of(new GpuSpec(0, "GPU-a", "T4", 1), new GpuSpec(1, "GPU-a", "T4", 1))));
    assertTrue(e.getMessage().contains("GPU-a"), e.getMessage());
    assertEquals(0, pool.workerCount());
    pool.checkInvariants();
  }

  @Test
  void adoptNamesSharesAndBudgetsThatDoNotFit() {
    pool.addWorker("w", 2, gpus("T4", 16_000, 0, 1));
    pool.adopt(new Allocation("s", "w", 0, List.of(0), 600, 10_000));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> pool.adopt(new Allocation("t", "w", 0, List.of(0), 500, 0)));
    assertTrue(e.getMessage().contains("0.4 of a GPU"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> pool.adopt(new Allocation("u", "w", 0, List.of(0), 100, 8_000)));
    assertTrue(e.getMessage().contains("6000 MiB"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> pool.adopt(new Allocation("v", "w", 0, List.of(0, 1))));
    assertTrue(e.getMessage().contains("whole"), e.getMessage());
    pool.adopt(new Allocation("x", "w", 1, List.of(1)));
    e = assertThrows(IllegalArgumentException.class, () -> pool.adopt(new Allocation("y", "w", 0, List.of(1), 0, 100)));
    assertTrue(e.getMessage().contains("whole"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new Allocation("z", "w", 0, List.of(1), 0, 0));
    assertEquals(2, pool.allocationCount());
    pool.checkInvariants();
  }

}
