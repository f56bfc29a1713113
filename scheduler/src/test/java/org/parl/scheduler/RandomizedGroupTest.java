package org.parl.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.parl.PlacementStrategy;
import org.parl.internal.resources.Allocation;
import org.parl.internal.resources.GroupRequest;
import org.parl.internal.resources.ResourceRequest;

/**
 * A random mix of single requests and groups at random priorities, releases, workers joining, leaving
 * and draining, and cancels, through the scheduler; after every step the pool's invariant, and every
 * grant whole and of its strategy.
 */
class RandomizedGroupTest {

  private static final int STEPS = 1_500;
  /** Few workers, so that requests and groups contend and wait. */
  private static final int MAX_WORKERS = 8;
  private static final PlacementStrategy[] STRATEGIES = PlacementStrategy.values();

  private final AtomicInteger ids = new AtomicInteger();
  private final ResourcePool pool = new ResourcePool();
  private final Scheduler<String> scheduler = new Scheduler<>(pool, () -> "j" + ids.incrementAndGet());
  /** Live jobs, each the bundle or request it was granted for. */
  private final Map<String, ResourceRequest> live = new HashMap<>();
  private final Set<String> everGranted = new HashSet<>();
  /** What each waiting ticket asked for. */
  private final Map<String, Object> asked = new HashMap<>();
  private final List<String> workers = new ArrayList<>();

  @ParameterizedTest
  @ValueSource(longs = {1, 17, 2024, 31337})
  void grantsAreWholeAndOfTheirStrategy(long seed) {
    Random rnd = new Random(seed);
    int nextWorker = 0;
    int nextTicket = 0;
    int maxWaiting = 0;
    for (int step = 0; step < STEPS; step++) {
      String context = "seed " + seed + " step " + step;
      int op = rnd.nextInt(100);
      if ((op < 8 && workers.size() < MAX_WORKERS) || workers.isEmpty()) {
        String id = "w" + nextWorker++;
        pool.addWorker(id, rnd.nextInt(9), gpus(rnd));
        workers.add(id);
      } else if (op < 11) {
        String id = workers.remove(rnd.nextInt(workers.size()));
        pool.removeWorker(id).forEach(a -> live.remove(a.jobId()));
      } else if (op < 16) {
        pool.setWorkerDrained(workers.get(rnd.nextInt(workers.size())), rnd.nextBoolean());
      } else if (op < 36) {
        String ticket = "s" + nextTicket++;
        ResourceRequest r = request(rnd);
        asked.put(ticket, r);
        scheduler.submit(r, rnd.nextInt(4), ticket).allocation().ifPresent(a -> granted(context, ticket, List.of(a)));
      } else if (op < 56) {
        String ticket = "g" + nextTicket++;
        GroupRequest g = group(rnd);
        asked.put(ticket, g);
        scheduler.submitGroup(g, rnd.nextInt(4), ticket).allocations().ifPresent(a -> granted(context, ticket, a));
      } else if (op < 90 && !live.isEmpty()) {
        List<String> jobs = new ArrayList<>(live.keySet());
        jobs.sort(null);
        for (int n = 1 + rnd.nextInt(3); n > 0 && !jobs.isEmpty(); n--) {
          String job = jobs.remove(rnd.nextInt(jobs.size()));
          assertTrue(pool.release(job).isPresent(), context);
          live.remove(job);
        }
      } else if (scheduler.waitingCount() > 0) {
        List<Scheduler.Waiting<String>> waiting = scheduler.waiting();
        assertTrue(scheduler.cancel(waiting.get(rnd.nextInt(waiting.size())).requestId()).isPresent(), context);
      }
      drain(context);
      pool.checkInvariants();
      assertEquals(live.size(), pool.allocationCount(), context);
      maxWaiting = Math.max(maxWaiting, scheduler.waitingCount());
    }
    assertTrue(maxWaiting >= 5, "seed " + seed + ": the mix should make entries wait, at most " + maxWaiting + " did");
    // Everything back in service and every job ended, again and again: whatever can ever fit gets placed.
    workers.forEach(w -> pool.setWorkerDrained(w, false));
    for (int round = 0; round < 10_000 && (round == 0 || !live.isEmpty()); round++) {
      for (String job : new ArrayList<>(live.keySet())) {
        pool.release(job);
        live.remove(job);
      }
      drain("seed " + seed + " final round " + round);
    }
    for (Scheduler.Waiting<String> w : scheduler.waiting()) {
      boolean ever = w.group() != null ? pool.canEverFitGroup(w.group()) : pool.canEverFit(w.request());
      assertFalse(ever, "seed " + seed + ": " + w.ticket() + " (" + w.words() + ") can fit but was never granted");
    }
    pool.checkInvariants();
  }

  private void drain(String context) {
    for (Scheduler.Grant<String> g : scheduler.drain()) {
      granted(context, g.ticket(), g.allocations());
    }
  }

  private void granted(String context, String ticket, List<Allocation> allocations) {
    Object what = asked.remove(ticket);
    List<ResourceRequest> bundles = what instanceof GroupRequest g ? g.bundles() : List.of((ResourceRequest) what);
    assertEquals(bundles.size(), allocations.size(), context + ": " + ticket + " granted in part");
    Set<String> on = new HashSet<>();
    for (int i = 0; i < bundles.size(); i++) {
      Allocation a = allocations.get(i);
      ResourceRequest b = bundles.get(i);
      assertEquals(b.cpus(), a.cpus(), context);
      assertEquals(b.gpuCount(), a.gpus().size(), context + ": " + ticket + " bundle " + i);
      assertTrue(everGranted.add(a.jobId()), context + ": job id " + a.jobId() + " given twice");
      on.add(a.workerId());
      live.put(a.jobId(), b);
    }
    if (what instanceof GroupRequest g && g.strategy() == PlacementStrategy.STRICT_PACK) {
      assertEquals(1, on.size(), context + ": STRICT_PACK on " + on);
    }
    if (what instanceof GroupRequest g && g.strategy() == PlacementStrategy.STRICT_SPREAD) {
      assertEquals(g.size(), on.size(), context + ": STRICT_SPREAD on " + on);
    }
  }

  private static List<GpuSpec> gpus(Random rnd) {
    int n = rnd.nextInt(5);
    List<GpuSpec> list = new ArrayList<>();
    String model = rnd.nextBoolean() ? "A100" : "T4";
    long memory = model.equals("A100") ? 40_000 : 16_000;
    for (int i = 0; i < n; i++) {
      list.add(new GpuSpec(i, "GPU-" + model + "-" + i, model, memory));
    }
    if (list.isEmpty()) {
      list.add(new GpuSpec(0, "GPU-T4-0", "T4", 16_000));
    }
    return list;
  }

  private static ResourceRequest request(Random rnd) {
    return switch (rnd.nextInt(6)) {
      case 0 -> ResourceRequest.ofCpus(1 + rnd.nextInt(4));
      case 1 -> new ResourceRequest(rnd.nextInt(2), 0, 250 * (1 + rnd.nextInt(3)), 0, null);
      case 2 -> new ResourceRequest(0, 0, 0, 4_000 * (1 + rnd.nextInt(4)), null);
      case 3 -> new ResourceRequest(0, 1, 0, 0, rnd.nextBoolean() ? "A100" : "T4");
      default -> new ResourceRequest(rnd.nextInt(2), 1 + rnd.nextInt(rnd.nextInt(10) == 0 ? 6 : 2), 0, 0, null);
    };
  }

  private static GroupRequest group(Random rnd) {
    List<ResourceRequest> bundles = new ArrayList<>();
    for (int n = 1 + rnd.nextInt(4); n > 0; n--) {
      bundles.add(request(rnd));
    }
    return new GroupRequest(bundles, STRATEGIES[rnd.nextInt(STRATEGIES.length)]);
  }
}
