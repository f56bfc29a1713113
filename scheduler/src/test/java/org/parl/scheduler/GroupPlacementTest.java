package org.parl.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.parl.PlacementStrategy;
import org.parl.internal.resources.Allocation;
import org.parl.internal.resources.GroupRequest;
import org.parl.internal.resources.ResourceRequest;
import org.parl.scheduler.Scheduler.Reason;
import org.parl.scheduler.Scheduler.ReasonClass;

/** Placement groups: strategies, all or nothing, reasons, reservations against singles, rename. */
class GroupPlacementTest {

  private final AtomicInteger ids = new AtomicInteger();
  private final Supplier<String> jobIds = () -> "j" + ids.incrementAndGet();
  private final ResourcePool pool = new ResourcePool();
  private final Scheduler<String> scheduler = new Scheduler<>(pool, jobIds);

  static GroupRequest group(PlacementStrategy strategy, ResourceRequest... bundles) {
    return new GroupRequest(List.of(bundles), strategy);
  }

  static GroupRequest gpus(PlacementStrategy strategy, int... perBundle) {
    List<ResourceRequest> bundles = new ArrayList<>();
    for (int g : perBundle) {
      bundles.add(ResourceRequest.ofGpus(g));
    }
    return new GroupRequest(bundles, strategy);
  }

  private static Set<String> workersOf(List<Allocation> allocations) {
    Set<String> workers = new HashSet<>();
    allocations.forEach(a -> workers.add(a.workerId()));
    return workers;
  }

  private List<Allocation> place(GroupRequest g) {
    List<Allocation> got = pool.allocateGroup(jobIds, g).orElseThrow();
    assertEquals(g.size(), got.size());
    for (int i = 0; i < g.size(); i++) {
      assertEquals(g.bundles().get(i).gpuCount(), got.get(i).gpus().size(), "bundle " + i + " in bundle order");
    }
    pool.checkInvariants();
    return got;
  }

  // ---- strategies ---------------------------------------------------------------------------

  @Test
  void strictSpreadPutsEveryBundleOnAWorkerOfItsOwn() {
    for (int i = 0; i < 4; i++) {
      pool.addWorker("w" + i, 0, List.of(0, 1));
    }
    List<Allocation> got = place(gpus(PlacementStrategy.STRICT_SPREAD, 1, 1, 1, 1));
    assertEquals(4, workersOf(got).size());
    assertTrue(pool.allocateGroup(jobIds, gpus(PlacementStrategy.STRICT_SPREAD, 1, 1, 1, 1, 1)).isEmpty(),
        "five bundles, four workers");
    pool.checkInvariants();
  }

  @Test
  void strictSpreadPlacesTheLargerBundlesFirstButAnswersInBundleOrder() {
    pool.addWorker("two", 0, List.of(0, 1));
    pool.addWorker("one", 0, List.of(0));
    List<Allocation> got = place(gpus(PlacementStrategy.STRICT_SPREAD, 1, 2));
    assertEquals(List.of("one", "two"), got.stream().map(Allocation::workerId).toList());
  }

  @Test
  void strictPackPutsEveryBundleOnOneWorker() {
    pool.addWorker("small", 0, List.of(0, 1));
    pool.addWorker("big", 0, List.of(0, 1, 2, 3));
    List<Allocation> got = place(gpus(PlacementStrategy.STRICT_PACK, 1, 1, 1));
    assertEquals(Set.of("big"), workersOf(got));
    assertTrue(pool.allocateGroup(jobIds, gpus(PlacementStrategy.STRICT_PACK, 1, 1)).isPresent(), "small holds two");
    assertTrue(pool.allocateGroup(jobIds, gpus(PlacementStrategy.STRICT_PACK, 1, 1)).isEmpty(),
        "one GPU is left on big and none on small");
    pool.checkInvariants();
  }

  @Test
  void strictPackFindsTheWorkerWhereBundlesOfDifferentModelsMeet() {
    for (int i = 0; i < 12; i++) {
      pool.addWorker("t4-" + i, 4, PoolPlacementTest.gpus("Tesla T4", 16_000, 0, 1, 2, 3));
    }
    List<GpuSpec> mixed = new ArrayList<>(PoolPlacementTest.gpus("A100", 40_000, 0));
    mixed.addAll(PoolPlacementTest.gpus("Tesla T4", 16_000, 1));
    pool.addWorker("mixed", 4, mixed);
    GroupRequest g = group(PlacementStrategy.STRICT_PACK, new ResourceRequest(1, 1, 0, 0, "A100"),
        new ResourceRequest(1, 1, 0, 0, "T4"));
    assertTrue(pool.canEverFitGroup(g));
    assertEquals(Set.of("mixed"), workersOf(place(g)));
  }

  @Test
  void packPrefersTheWorkersItAlreadyUsesAndBendsWhenItMust() {
    pool.addWorker("a", 0, List.of(0, 1, 2, 3));
    pool.addWorker("b", 0, List.of(0, 1, 2, 3));
    assertEquals(1, workersOf(place(gpus(PlacementStrategy.PACK, 1, 1, 1, 1))).size());
    pool.addWorker("c", 0, List.of(0, 1, 2, 3));
    assertEquals(2, workersOf(place(gpus(PlacementStrategy.PACK, 1, 1, 1, 1, 1, 1))).size(),
        "six bundles on four-GPU workers: two workers, not three");
  }

  @Test
  void spreadPrefersWorkersItDoesNotUseYetAndBendsWhenItMust() {
    pool.addWorker("a", 0, List.of(0, 1, 2, 3));
    pool.addWorker("b", 0, List.of(0, 1, 2, 3));
    pool.addWorker("c", 0, List.of(0, 1, 2, 3));
    assertEquals(3, workersOf(place(gpus(PlacementStrategy.SPREAD, 1, 1, 1))).size());
    List<Allocation> six = place(gpus(PlacementStrategy.SPREAD, 1, 1, 1, 1, 1, 1));
    assertEquals(3, workersOf(six).size(), "six bundles on three workers: all of them, twice");
  }

  // ---- all or nothing -----------------------------------------------------------------------

  @Test
  void aGroupThatDoesNotFitLeavesThePoolExactlyAsBefore() {
    pool.addWorker("a", 2, List.of(0, 1));
    pool.addWorker("b", 2, List.of(0, 1));
    pool.addWorker("c", 4, List.<Integer>of());
    pool.allocate("x", ResourceRequest.ofGpus(1)).orElseThrow();
    pool.allocate("s", PoolPlacementTest.share(0.5)).orElseThrow();
    for (GroupRequest g : List.of(gpus(PlacementStrategy.STRICT_SPREAD, 1, 1, 1), gpus(PlacementStrategy.STRICT_PACK, 1, 2),
        gpus(PlacementStrategy.PACK, 1, 1, 1, 1), gpus(PlacementStrategy.SPREAD, 2, 2),
        group(PlacementStrategy.SPREAD, ResourceRequest.ofCpus(4), ResourceRequest.ofCpus(4)))) {
      List<WorkerView> before = pool.workers();
      int count = pool.allocationCount();
      int drawn = ids.get();
      assertTrue(pool.allocateGroup(jobIds, g).isEmpty(), g.toString());
      assertEquals(before, pool.workers(), g + " left a partial hold");
      assertEquals(count, pool.allocationCount());
      assertEquals(drawn, ids.get(), "no job id is drawn for a group that is not placed");
      pool.checkInvariants();
    }
  }

  @Test
  void aBadJobIdGivesEveryBundleBack() {
    pool.addWorker("a", 0, List.of(0, 1, 2));
    pool.allocate("taken", ResourceRequest.ofGpus(1)).orElseThrow();
    List<WorkerView> before = pool.workers();
    List<String> given = new ArrayList<>(List.of("fresh", "taken"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> pool.allocateGroup(() -> given.remove(0), gpus(PlacementStrategy.PACK, 1, 1)));
    assertEquals("job taken already holds resources", e.getMessage());
    assertEquals(before, pool.workers());
    assertEquals(1, pool.allocationCount());
    List<String> twice = new ArrayList<>(List.of("same", "same"));
    e = assertThrows(IllegalArgumentException.class,
        () -> pool.allocateGroup(() -> twice.remove(0), gpus(PlacementStrategy.PACK, 1, 1)));
    assertEquals("job id same is given to two bundles", e.getMessage());
    assertEquals(before, pool.workers());
    pool.checkInvariants();
  }

  // ---- never fits ---------------------------------------------------------------------------

  @Test
  void neverFitsNamesTheBundleOrTheStrategy() {
    pool.addWorker("a", 8, List.of(0, 1));
    pool.addWorker("b", 4, List.of(0, 1));
    assertEquals("bundle 2 (4 GPUs): no worker lends 4 GPUs; the largest worker, a, lends 2 GPUs",
        pool.groupNeverFits(gpus(PlacementStrategy.PACK, 1, 1, 4)).orElseThrow());
    assertEquals("no worker could hold all 3 bundles together (STRICT_PACK); the largest worker is a, which lends 8 CPUs"
        + " and 2 GPUs", pool.groupNeverFits(gpus(PlacementStrategy.STRICT_PACK, 1, 1, 1)).orElseThrow());
    assertEquals("no 3 distinct workers could hold the 3 bundles, one each (STRICT_SPREAD); 2 workers could hold one of them",
        pool.groupNeverFits(gpus(PlacementStrategy.STRICT_SPREAD, 1, 1, 1)).orElseThrow());
    assertEquals("the workers could never hold all 3 bundles at once (SPREAD): together they ask for more than the pool lends",
        pool.groupNeverFits(gpus(PlacementStrategy.SPREAD, 2, 2, 2)).orElseThrow());
    assertTrue(pool.canEverFitGroup(gpus(PlacementStrategy.SPREAD, 2, 2)));
  }

  @Test
  void loadAndServiceStatesDoNotMakeAGroupInfeasible() {
    pool.addWorker("a", 0, List.of(0, 1));
    pool.addWorker("b", 0, List.of(0, 1));
    GroupRequest g = gpus(PlacementStrategy.STRICT_SPREAD, 2, 2);
    pool.allocate("x", ResourceRequest.ofGpus(1)).orElseThrow();
    pool.setWorkerDrained("b", true);
    pool.setGpuQuarantined("a", 1, true);
    assertTrue(pool.canEverFitGroup(g));
    assertTrue(pool.groupNeverFits(g).isEmpty());
    pool.removeWorker("b");
    assertFalse(pool.canEverFitGroup(g), "asked again once a worker left");
    pool.addWorker("c", 0, List.of(0, 1));
    assertTrue(pool.canEverFitGroup(g));
    pool.checkInvariants();
  }

  // ---- shares, budgets and models -----------------------------------------------------------

  @Test
  void bundlesTakeSharesBudgetsAndModels() {
    pool.addWorker("a100", 4, PoolPlacementTest.gpus("NVIDIA A100-SXM4-40GB", 40_960, 0, 1));
    pool.addWorker("t4", 4, PoolPlacementTest.gpus("Tesla T4", 16_000, 0, 1));
    GroupRequest g = group(PlacementStrategy.STRICT_PACK, new ResourceRequest(1, 0, 500, 8_192, "A100"),
        new ResourceRequest(1, 0, 500, 30_000, null), new ResourceRequest(1, 1, 0, 0, null));
    List<Allocation> got = place(g);
    assertEquals(Set.of("a100"), workersOf(got), "only the A100s hold 30000 MiB");
    assertEquals(got.get(0).gpus(), got.get(1).gpus(), "the halves share one GPU");
    assertEquals(List.of(500, 500, 1000), got.stream().map(Allocation::gpuShare).toList());
    assertEquals(38_192, pool.worker("a100").orElseThrow().gpuLoads().get(got.get(0).gpus().get(0)).memoryBudgetMb());
    assertTrue(pool.allocateGroup(jobIds, group(PlacementStrategy.STRICT_SPREAD, new ResourceRequest(0, 0, 0, 20_000, null),
        new ResourceRequest(0, 0, 0, 20_000, null))).isEmpty(), "the T4s take no 20000 MiB budget; the A100s are full");
    assertEquals("bundle 1 (1 GPU (model H100)): no GPU of model H100 is in the pool; models present: NVIDIA A100-SXM4-40GB,"
        + " Tesla T4", pool.groupNeverFits(group(PlacementStrategy.PACK, ResourceRequest.ofGpus(1),
            new ResourceRequest(0, 1, 0, 0, "H100"))).orElseThrow());
    pool.checkInvariants();
  }

  // ---- rename -------------------------------------------------------------------------------

  @Test
  void renameKeepsTheHoldingUnderAnotherJobId() {
    pool.addWorker("w", 2, List.of(0, 1));
    List<Allocation> got = place(gpus(PlacementStrategy.PACK, 1, 1));
    String first = got.get(0).jobId();
    Allocation renamed = pool.rename(first, "actor-2");
    assertEquals(new Allocation("actor-2", "w", 0, got.get(0).gpus()), renamed);
    assertEquals(Set.of("actor-2", got.get(1).jobId()), pool.worker("w").orElseThrow().jobs());
    pool.checkInvariants();
    assertEquals("job " + first + " holds no resources to rename",
        assertThrows(IllegalArgumentException.class, () -> pool.rename(first, "x")).getMessage());
    assertEquals("job " + got.get(1).jobId() + " already holds resources",
        assertThrows(IllegalArgumentException.class, () -> pool.rename("actor-2", got.get(1).jobId())).getMessage());
    assertThrows(IllegalArgumentException.class, () -> pool.rename("actor-2", null));
    assertEquals(renamed, pool.release("actor-2").orElseThrow());
    pool.checkInvariants();
  }

  // ---- bad input ----------------------------------------------------------------------------

  @Test
  void badGroupsAreRefusedWithAReason() {
    assertEquals("a placement group needs at least one bundle",
        assertThrows(IllegalArgumentException.class, () -> new GroupRequest(List.of(), PlacementStrategy.PACK)).getMessage());
    List<ResourceRequest> many = Collections.nCopies(GroupRequest.MAX_BUNDLES + 1, ResourceRequest.ofCpus(1));
    assertEquals("a placement group has at most 1024 bundles, not 1025",
        assertThrows(IllegalArgumentException.class, () -> new GroupRequest(many, PlacementStrategy.PACK)).getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> new GroupRequest(List.of(ResourceRequest.ofCpus(1)), null)).getMessage().startsWith("a placement group needs a strategy"));
    assertEquals("a placement group is needed, not null",
        assertThrows(IllegalArgumentException.class, () -> pool.allocateGroup(jobIds, null)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> pool.groupNeverFits(null));
    assertThrows(IllegalArgumentException.class, () -> scheduler.submitGroup(null, 0, "g"));
    pool.checkInvariants();
  }

  @Test
  void aGroupOfTheMostBundlesIsPlacedInOneStep() {
    for (int i = 0; i < GroupRequest.MAX_BUNDLES; i++) {
      pool.addWorker("w" + i, 1, List.<Integer>of());
    }
    GroupRequest g = new GroupRequest(Collections.nCopies(GroupRequest.MAX_BUNDLES, ResourceRequest.ofCpus(1)),
        PlacementStrategy.STRICT_SPREAD);
    assertTrue(pool.canEverFitGroup(g));
    assertEquals(GroupRequest.MAX_BUNDLES, workersOf(place(g)).size());
  }

  // ---- in the scheduler ---------------------------------------------------------------------

  @Test
  void aGroupWaitsAndIsGrantedWhenJobsEnd() {
    pool.addWorker("a", 0, List.of(0, 1));
    pool.addWorker("b", 0, List.of(0, 1));
    Allocation x = scheduler.submit(ResourceRequest.ofGpus(2), "x").allocation().orElseThrow();
    GroupRequest g = gpus(PlacementStrategy.STRICT_SPREAD, 1, 1);
    long id = scheduler.submitGroup(g, 0, "g").requestId();
    assertEquals(1, scheduler.waitingCount());
    assertEquals(2, scheduler.reservedWorkers(id).size());
    assertEquals(g.toString(), scheduler.waiting().get(0).words());
    Reason r = scheduler.reason(id).orElseThrow();
    assertEquals(ReasonClass.BUSY, r.kind());
    assertEquals("no 2 distinct workers hold the 2 bundles, one each, now (STRICT_SPREAD)", r.summary());
    pool.checkInvariants();
    pool.release(x.jobId());
    List<Scheduler.Grant<String>> grants = scheduler.drain();
    assertEquals(List.of("g"), grants.stream().map(Scheduler.Grant::ticket).toList());
    assertEquals(2, workersOf(grants.get(0).allocations()).size());
    assertEquals(0, scheduler.waitingCount());
    pool.checkInvariants();
  }

  @Test
  void reasonsNameTheBundleThatDoesNotFitNow() {
    pool.addWorker("w", 0, List.of(0, 1));
    pool.addWorker("v", 0, List.of(0));
    pool.adopt(new Allocation("x", "w", 0, List.of(0)));
    long id = scheduler.submitGroup(gpus(PlacementStrategy.PACK, 1, 2), 0, "g").requestId();
    Reason r = scheduler.reason(id).orElseThrow();
    assertEquals(ReasonClass.BUSY, r.kind());
    assertEquals("bundle 1 (2 GPUs) does not fit now: w: 1 of 2 GPUs vacant", r.summary());
    assertEquals(List.of("w: 1 of 2 GPUs vacant", "v: lends 1 GPU, 2 asked"), r.details());
    long never = scheduler.submitGroup(gpus(PlacementStrategy.STRICT_PACK, 2, 1), 0, "never").requestId();
    r = scheduler.reason(never).orElseThrow();
    assertEquals(ReasonClass.NO_WORKER, r.kind());
    assertTrue(r.summary().startsWith("no worker could hold all 2 bundles together (STRICT_PACK)"), r.summary());
    long queued = scheduler.submitGroup(gpus(PlacementStrategy.PACK, 1), 0, "q").requestId();
    r = scheduler.reason(queued).orElseThrow();
    assertEquals(ReasonClass.QUEUED, r.kind(), "its bundle fits only on the worker reserved for g");
    assertEquals(2, r.ahead());
    assertEquals(List.of(ReasonClass.BUSY, ReasonClass.NO_WORKER, ReasonClass.QUEUED), scheduler.reasonClasses(8));
    assertEquals(1, scheduler.dropNeverFitting(t -> false).size());
    assertEquals(List.of("g", "q"), scheduler.waiting().stream().map(Scheduler.Waiting::ticket).toList());
  }

  @Test
  void aGroupIsNotStarvedByAStreamOfSmallRequests() {
    pool.addWorker("a", 0, List.of(0, 1));
    pool.addWorker("b", 0, List.of(0, 1));
    pool.addWorker("c", 0, List.of(0));
    Allocation onA = new Allocation("onA", "a", 0, List.of(0));
    Allocation onB = new Allocation("onB", "b", 0, List.of(0));
    pool.adopt(onA);
    pool.adopt(onB);
    long g = scheduler.submitGroup(gpus(PlacementStrategy.STRICT_SPREAD, 2, 2), 0, "g").requestId();
    assertEquals(Set.of("a", "b"), new HashSet<>(scheduler.reservedWorkers(g)));
    List<Allocation> small = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      Scheduler.Submitted s = scheduler.submit(ResourceRequest.ofGpus(1), "s" + i);
      s.allocation().ifPresent(small::add);
      for (Scheduler.Grant<String> grant : scheduler.drain()) {
        small.add(grant.allocation());
      }
      small.forEach(a -> assertEquals("c", a.workerId(), "a and b are reserved for the group"));
      if (!small.isEmpty()) {
        pool.release(small.remove(0).jobId());
      }
      pool.checkInvariants();
    }
    pool.release(onA.jobId());
    assertTrue(scheduler.drain().stream().noneMatch(x -> x.ticket().equals("g")), "b is still busy");
    pool.release(onB.jobId());
    List<Scheduler.Grant<String>> grants = scheduler.drain();
    assertEquals("g", grants.get(0).ticket(), "placed once the jobs on its reserved workers ended");
    assertEquals(Set.of("a", "b"), workersOf(grants.get(0).allocations()));
    pool.checkInvariants();
  }

  @Test
  void aSingleRequestIsNotStarvedByGroups() {
    pool.addWorker("a", 0, List.of(0, 1));
    pool.addWorker("b", 0, List.of(0, 1));
    Allocation onA = new Allocation("onA", "a", 0, List.of(0));
    Allocation onB = new Allocation("onB", "b", 0, List.of(0));
    pool.adopt(onA);
    pool.adopt(onB);
    long big = scheduler.submit(ResourceRequest.ofGpus(2), "big").requestId();
    String reserved = scheduler.reservedWorker(big).orElseThrow();
    Allocation onReserved = reserved.equals("a") ? onA : onB;
    for (int i = 0; i < 10; i++) {
      Scheduler.GroupSubmitted s = scheduler.submitGroup(gpus(PlacementStrategy.SPREAD, 1, 1), 0, "g" + i);
      assertTrue(s.allocations().isEmpty(), "one GPU is open off the reserved worker, and each group needs two");
      assertTrue(scheduler.drain().isEmpty());
      pool.checkInvariants();
    }
    pool.release(onReserved.jobId());
    List<Scheduler.Grant<String>> grants = scheduler.drain();
    assertEquals("big", grants.get(0).ticket(), "served first, though groups behind it could have split its worker");
    assertEquals(reserved, grants.get(0).allocation().workerId());
    pool.checkInvariants();
  }
}
