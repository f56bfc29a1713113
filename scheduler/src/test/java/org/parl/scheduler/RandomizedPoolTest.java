package org.parl.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.parl.internal.resources.Allocation;
import org.parl.internal.resources.ResourceRequest;

/**
 * Thousands of random add/remove/allocate/release steps per seed, with the pool's invariant and
 * an independent model checked after every step.
 */
class RandomizedPoolTest {

  private static final int STEPS = 5_000;

  @ParameterizedTest
  @ValueSource(longs = {1, 7, 42, 1234, 987654321})
  void gpuPoolStaysExact(long seed) {
    run(seed, true);
  }

  @ParameterizedTest
  @ValueSource(longs = {3, 99, 2024})
  void cpuPoolStaysExact(long seed) {
    run(seed, false);
  }

  private void run(long seed, boolean gpus) {
    Random rnd = new Random(seed);
    ResourcePool pool = new ResourcePool();
    Map<String, Set<Integer>> offered = new HashMap<>();
    Map<String, Integer> cpusOffered = new HashMap<>();
    Map<String, Allocation> live = new HashMap<>();
    int nextWorker = 0;
    int nextJob = 0;
    for (int step = 0; step < STEPS; step++) {
      int op = rnd.nextInt(100);
      String context = "seed " + seed + " step " + step;
      if (op < 10 || offered.isEmpty()) {
        String id = "w" + nextWorker++;
        Set<Integer> ids = new HashSet<>();
        int cpus = 0;
        if (gpus) {
          int n = 1 + rnd.nextInt(8);
          while (ids.size() < n) {
            ids.add(rnd.nextInt(16));
          }
        } else {
          cpus = 1 + rnd.nextInt(16);
        }
        pool.addWorker(id, cpus, ids);
        offered.put(id, ids);
        cpusOffered.put(id, cpus);
      } else if (op < 15) {
        String id = pick(rnd, offered.keySet());
        List<Allocation> lost = pool.removeWorker(id);
        Set<String> expected = new HashSet<>();
        live.values().stream().filter(a -> a.workerId().equals(id)).forEach(a -> expected.add(a.jobId()));
        Set<String> got = new HashSet<>();
        lost.forEach(a -> got.add(a.jobId()));
        assertEquals(expected, got, context);
        expected.forEach(live::remove);
        offered.remove(id);
        cpusOffered.remove(id);
      } else if (op < 60) {
        ResourceRequest r = gpus
            ? ResourceRequest.ofGpus(1 + rnd.nextInt(rnd.nextBoolean() ? 2 : 8))
            : ResourceRequest.ofCpus(1 + rnd.nextInt(rnd.nextBoolean() ? 2 : 16));
        String job = "j" + nextJob++;
        boolean anyFits = anyWorkerFits(pool, r);
        Optional<Allocation> a = pool.allocate(job, r);
        assertEquals(anyFits, a.isPresent(), context + ": allocation must succeed iff some worker fits");
        a.ifPresent(x -> {
          assertTrue(offered.get(x.workerId()).containsAll(x.gpus()), context + ": GPU ids must exist");
          assertEquals(r.gpus(), x.gpus().size(), context);
          for (Allocation other : live.values()) {
            if (other.workerId().equals(x.workerId())) {
              for (int g : x.gpus()) {
                assertTrue(!other.gpus().contains(g), context + ": GPU " + g + " given twice");
              }
            }
          }
          live.put(job, x);
        });
      } else if (op < 95 && !live.isEmpty()) {
        String job = pick(rnd, live.keySet());
        assertEquals(live.remove(job), pool.release(job).orElseThrow(), context);
      } else {
        assertTrue(pool.release("never-" + step).isEmpty(), context);
      }
      try {
        pool.checkInvariants();
      } catch (IllegalStateException e) {
        fail(context + ": " + e.getMessage());
      }
      assertEquals(live.size(), pool.allocationCount(), context);
    }
  }

  private static boolean anyWorkerFits(ResourcePool pool, ResourceRequest r) {
    return pool.workers().stream()
        .anyMatch(w -> w.vacantGpus().size() >= r.gpus() && w.cpusVacant() >= r.cpus());
  }

  private static <T> T pick(Random rnd, Set<T> set) {
    List<T> list = new ArrayList<>(set);
    list.sort(null);
    return list.get(rnd.nextInt(list.size()));
  }

  // ---- CPUs, whole GPUs, shares, budgets, models, drains and quarantines --------------------

  private static final String[] MODELS = {"NVIDIA A100-SXM4-40GB", "Tesla T4", ""};
  private static final long[] MEMORY = {0, 16_000, 40_000};
  private static final int[] SHARES = {100, 250, 500, 600, 750};

  /** The test's own account of one worker, kept apart from the pool's. */
  private static final class Model {
    final int cpus;
    final List<GpuSpec> gpus;
    final int[] units;
    final long[] budgets;
    final boolean[] whole;
    final boolean[] gpuDrained;
    final boolean[] quarantined;
    boolean drained;
    int cpusUsed;

    Model(int cpus, List<GpuSpec> gpus) {
      this.cpus = cpus;
      this.gpus = gpus;
      int n = gpus.size();
      units = new int[n];
      budgets = new long[n];
      whole = new boolean[n];
      gpuDrained = new boolean[n];
      quarantined = new boolean[n];
    }

    int slot(int index) {
      for (int s = 0; s < gpus.size(); s++) {
        if (gpus.get(s).index() == index) {
          return s;
        }
      }
      throw new AssertionError("no GPU " + index);
    }

    boolean inService(int s) {
      return !drained && !gpuDrained[s] && !quarantined[s];
    }

    boolean untouched(int s) {
      return units[s] == 0 && budgets[s] == 0;
    }

    boolean capable(int s, ResourceRequest r) {
      GpuSpec g = gpus.get(s);
      return g.matches(r.gpuModel()) && (r.gpuMemoryMb() == 0 || g.memoryMb() >= r.gpuMemoryMb());
    }

    int vacantFor(ResourceRequest r) {
      int n = 0;
      for (int s = 0; s < gpus.size(); s++) {
        if (untouched(s) && inService(s) && capable(s, r)) {
          n++;
        }
      }
      return n;
    }

    int vacantGpus() {
      int n = 0;
      for (int s = 0; s < gpus.size(); s++) {
        if (untouched(s) && inService(s)) {
          n++;
        }
      }
      return n;
    }

    boolean shareFits(int s, ResourceRequest r) {
      return inService(s) && !whole[s] && capable(s, r) && 1000 - units[s] >= r.gpuShare()
          && (r.gpuMemoryMb() == 0 || gpus.get(s).memoryMb() - budgets[s] >= r.gpuMemoryMb());
    }

    /** The share index's order: fewest free units first, untouched last. */
    int shareKey(int s) {
      return 2 * (1000 - units[s]) + (untouched(s) ? 1 : 0);
    }

    /** The budget index's order: least free memory first, in steps of 256 MiB. */
    int budgetKey(int s) {
      return (int) ((gpus.get(s).memoryMb() - budgets[s]) / 256);
    }

    boolean fits(ResourceRequest r) {
      if (drained || cpus - cpusUsed < r.cpus()) {
        return false;
      }
      if (r.gpus() > 0) {
        return vacantFor(r) >= r.gpus();
      }
      if (r.wantsGpu()) {
        for (int s = 0; s < gpus.size(); s++) {
          if (shareFits(s, r)) {
            return true;
          }
        }
        return false;
      }
      return true;
    }

    void apply(Allocation a, int sign) {
      cpusUsed += sign * a.cpus();
      for (int g : a.gpus()) {
        int s = slot(g);
        units[s] += sign * a.gpuShare();
        budgets[s] += sign * a.gpuMemoryMb();
        if (a.wholeGpus()) {
          whole[s] = sign > 0;
        }
      }
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {5, 11, 77, 31337, 424242})
  void mixedPoolStaysExact(long seed) {
    Random rnd = new Random(seed);
    ResourcePool pool = new ResourcePool();
    Map<String, Model> models = new HashMap<>();
    Map<String, Allocation> live = new HashMap<>();
    int nextWorker = 0;
    int nextJob = 0;
    for (int step = 0; step < STEPS; step++) {
      int op = rnd.nextInt(100);
      String context = "seed " + seed + " step " + step;
      if (op < 8 || models.isEmpty()) {
        String id = "w" + nextWorker++;
        int cpus = rnd.nextInt(3) == 0 ? 0 : 1 + rnd.nextInt(16);
        int n = cpus == 0 ? 1 + rnd.nextInt(8) : rnd.nextInt(5);
        String model = MODELS[rnd.nextInt(MODELS.length)];
        long memory = MEMORY[rnd.nextInt(MEMORY.length)];
        List<GpuSpec> gpus = new ArrayList<>();
        Set<Integer> ids = new HashSet<>();
        while (gpus.size() < n) {
          int g = rnd.nextInt(16);
          if (ids.add(g)) {
            gpus.add(new GpuSpec(g, "GPU-" + id + "-" + g, model, memory));
          }
        }
        pool.addWorker(id, cpus, gpus);
        gpus.sort((a, b) -> Integer.compare(a.index(), b.index()));
        models.put(id, new Model(cpus, gpus));
      } else if (op < 11) {
        String id = pick(rnd, models.keySet());
        Set<String> got = new HashSet<>();
        pool.removeWorker(id).forEach(a -> got.add(a.jobId()));
        Set<String> expected = new HashSet<>();
        live.values().stream().filter(a -> a.workerId().equals(id)).forEach(a -> expected.add(a.jobId()));
        assertEquals(expected, got, context);
        expected.forEach(live::remove);
        models.remove(id);
      } else if (op < 17) {
        String id = pick(rnd, models.keySet());
        Model m = models.get(id);
        int kind = rnd.nextInt(3);
        if (kind == 0 || m.gpus.isEmpty()) {
          m.drained = rnd.nextInt(3) == 0;
          pool.setWorkerDrained(id, m.drained);
        } else {
          int s = rnd.nextInt(m.gpus.size());
          int index = m.gpus.get(s).index();
          boolean on = rnd.nextInt(3) == 0;
          if (kind == 1) {
            m.gpuDrained[s] = on;
            pool.setGpuDrained(id, index, on);
          } else {
            m.quarantined[s] = on;
            Set<String> holders = new HashSet<>();
            pool.setGpuQuarantined(id, index, on).forEach(a -> holders.add(a.jobId()));
            Set<String> expected = new HashSet<>();
            live.values().stream().filter(a -> a.workerId().equals(id) && a.gpus().contains(index))
                .forEach(a -> expected.add(a.jobId()));
            assertEquals(expected, holders, context + ": the holders of a quarantined GPU");
          }
        }
      } else if (op < 60) {
        ResourceRequest r = randomRequest(rnd);
        String job = "j" + nextJob++;
        boolean anyFits = models.values().stream().anyMatch(m -> m.fits(r));
        Optional<Allocation> got = pool.allocate(job, r);
        assertEquals(anyFits, got.isPresent(), context + ": " + r + " must be placed iff some worker fits it");
        if (got.isPresent()) {
          Allocation a = got.get();
          checkPlacement(models, a, r, context);
          models.get(a.workerId()).apply(a, 1);
          live.put(job, a);
        }
      } else if (op < 97 && !live.isEmpty()) {
        String job = pick(rnd, live.keySet());
        Allocation a = live.remove(job);
        assertEquals(a, pool.release(job).orElseThrow(), context);
        models.get(a.workerId()).apply(a, -1);
      } else {
        assertTrue(pool.release("never-" + step).isEmpty(), context);
      }
      try {
        pool.checkInvariants();
      } catch (IllegalStateException e) {
        fail(context + ": " + e.getMessage());
      }
      assertEquals(live.size(), pool.allocationCount(), context);
      if (step % 10 == 0) {
        compare(pool, models, context);
      }
    }
    for (String job : new ArrayList<>(live.keySet())) {
      assertTrue(pool.release(job).isPresent());
    }
    pool.checkInvariants();
    assertEquals(0, pool.allocationCount());
    for (WorkerView v : pool.workers()) {
      assertEquals(0, v.cpusUsed(), v.workerId());
      assertEquals(List.of(), v.usedGpus(), v.workerId() + " leaked GPUs");
      for (WorkerView.GpuLoad l : v.gpuLoads()) {
        assertEquals(0, l.shareUsed(), v.workerId());
        assertEquals(0, l.memoryBudgetMb(), v.workerId());
      }
    }
  }

  private static ResourceRequest randomRequest(Random rnd) {
    int cpus = rnd.nextInt(3);
    String model = rnd.nextInt(4) == 0 ? (rnd.nextBoolean() ? "a100" : "T4") : null;
    long budget = rnd.nextInt(4) == 0 ? 1_000L * (1 + rnd.nextInt(20)) : 0;
    return switch (rnd.nextInt(4)) {
      case 0 -> ResourceRequest.ofCpus(1 + rnd.nextInt(8));
      case 1 -> new ResourceRequest(cpus, 1 + rnd.nextInt(rnd.nextBoolean() ? 2 : 6), 0, budget, model);
      case 2 -> new ResourceRequest(cpus, 0, SHARES[rnd.nextInt(SHARES.length)], budget, model);
      default -> new ResourceRequest(cpus, 0, 0, 1_000L * (1 + rnd.nextInt(20)), model);
    };
  }

  /** The allocation is legal in the model, and the best fit the rules promise. */
  private static void checkPlacement(Map<String, Model> models, Allocation a, ResourceRequest r, String context) {
    Model m = models.get(a.workerId());
    assertTrue(m.fits(r), context + ": placed where it does not fit");
    assertEquals(r.cpus(), a.cpus(), context);
    if (r.gpus() > 0) {
      assertEquals(r.gpus(), a.gpus().size(), context);
      for (int g : a.gpus()) {
        int s = m.slot(g);
        assertTrue(m.untouched(s) && m.inService(s) && m.capable(s, r), context + ": GPU " + g + " was not free for " + r);
      }
      int min = models.values().stream().filter(x -> x.fits(r)).mapToInt(Model::vacantGpus).min().orElseThrow();
      assertEquals(min, m.vacantGpus(), context + ": best fit takes the fewest vacant GPUs that suffice");
    } else if (r.wantsGpu()) {
      assertEquals(1, a.gpus().size(), context);
      int s = m.slot(a.gpus().get(0));
      assertTrue(m.shareFits(s, r), context + ": the share does not fit GPU " + a.gpus().get(0));
      // a partly used GPU first (the fewest free units, or the least free memory, that suffice);
      // only when none fits, an untouched GPU, on the worker with the fewest vacant GPUs that has one
      int best = Integer.MAX_VALUE;
      int fewestVacant = Integer.MAX_VALUE;
      for (Model x : models.values()) {
        if (x.drained || x.cpus - x.cpusUsed < r.cpus()) {
          continue;
        }
        for (int t = 0; t < x.gpus.size(); t++) {
          if (x.shareFits(t, r) && !x.untouched(t)) {
            best = Math.min(best, r.gpuShare() > 0 ? x.shareKey(t) : x.budgetKey(t));
          } else if (x.shareFits(t, r)) {
            fewestVacant = Math.min(fewestVacant, x.vacantGpus());
          }
        }
      }
      if (best != Integer.MAX_VALUE) {
        assertFalse(m.untouched(s), context + ": an untouched GPU taken while a partly used one fits");
        assertEquals(best, r.gpuShare() > 0 ? m.shareKey(s) : m.budgetKey(s),
            context + ": shares pack on the partly used GPU with the fewest free units, budgets on the least free memory");
      } else {
        assertEquals(fewestVacant, m.vacantGpus(), context + ": an untouched GPU of the worker with the fewest vacant GPUs");
      }
    } else {
      assertTrue(a.gpus().isEmpty(), context);
      if (m.vacantGpus() > 0) {
        assertTrue(models.values().stream().noneMatch(x -> x.vacantGpus() == 0 && x.fits(r)),
            context + ": a CPU request went to a worker with vacant GPUs while one without fits");
      }
    }
  }

  private static void compare(ResourcePool pool, Map<String, Model> models, String context) {
    for (WorkerView v : pool.workers()) {
      Model m = models.get(v.workerId());
      assertEquals(m.cpusUsed, v.cpusUsed(), context);
      assertEquals(m.drained, v.drained(), context);
      List<Integer> vacant = new ArrayList<>();
      List<Integer> used = new ArrayList<>();
      List<Integer> out = new ArrayList<>();
      for (int s = 0; s < m.gpus.size(); s++) {
        WorkerView.GpuLoad l = v.gpuLoads().get(s);
        int index = m.gpus.get(s).index();
        assertEquals(new WorkerView.GpuLoad(index, m.units[s], m.budgets[s], m.gpus.get(s).memoryMb(), m.gpuDrained[s],
            m.quarantined[s]), l, context);
        (!m.untouched(s) ? used : m.inService(s) ? vacant : out).add(index);
      }
      assertEquals(vacant, v.vacantGpus(), context);
      assertEquals(used, v.usedGpus(), context);
      assertEquals(out, v.outOfServiceGpus(), context);
    }
  }
}
