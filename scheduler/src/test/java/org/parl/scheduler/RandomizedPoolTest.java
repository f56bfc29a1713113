package org.parl.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
}
