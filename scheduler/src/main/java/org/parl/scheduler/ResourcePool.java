package org.parl.scheduler;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.parl.PlacementStrategy;
import org.parl.internal.resources.Allocation;
import org.parl.internal.resources.GpuAmount;
import org.parl.internal.resources.GroupRequest;
import org.parl.internal.resources.ResourceRequest;

/**
 * The CPU/GPU pool of a cluster: which worker lends what, which job holds what, and what is out of
 * service.
 *
 * <p>Plain Java with a single writer: the JobCenter calls it from one event loop, so it uses no locks.
 * Accounting is in integers: a GPU has {@link GpuAmount#UNITS_PER_GPU} units, a job holding it
 * whole holds all of them, and memory budgets are MiB. {@link #checkInvariants()} verifies the
 * accounting exactly; tests call it after every step.
 *
 * <p>Placement is best fit, found through indexes so that the cost of a request does not grow with
 * the number of workers:
 * <ul>
 *   <li>Whole GPUs go only to GPUs with nothing held (no share, no budget), in service, of the model
 *       asked and, with a budget, with at least that much memory each; on the worker with the fewest
 *       vacant GPUs that suffice, with the request's CPUs on the same worker.
 *   <li>A share, or a budget alone, goes to one GPU in service, of the model asked, with enough free
 *       units and free memory (its memory minus the budgets placed on it; a GPU of unknown memory takes
 *       no budget). For a share, the partly used GPU with the fewest free units that suffice comes first,
 *       so shares pack and whole GPUs stay free; for a budget alone, the GPU with the least free memory
 *       that suffices (to within 256 MiB), for the same reason. A share never spans GPUs.
 *   <li>A CPU-only request goes, best fit on CPUs, to a worker with no vacant GPU if one fits, and only
 *       otherwise to a worker with vacant GPUs, so that GPU hosts keep their CPUs for GPU actors.
 * </ul>
 * Nothing new is placed on a drained worker, a drained GPU or a quarantined GPU; jobs already there
 * keep what they hold.
 */
public final class ResourcePool {

  private static final int UNITS = GpuAmount.UNITS_PER_GPU;

  /** Where a request would go: a worker and the GPU slots on it. */
  record Placement(PoolWorker worker, int[] slots) {}

  private final Map<String, PoolWorker> workers = new LinkedHashMap<>();
  private final Map<String, Allocation> allocations = new HashMap<>();
  /** Workers with GPUs, by vacant GPUs. */
  private final VacancyIndex<PoolWorker> gpuIndex = new VacancyIndex<>();
  /** Workers with CPUs and no vacant GPU, by vacant CPUs. */
  private final VacancyIndex<PoolWorker> cpuNoGpuIndex = new VacancyIndex<>();
  /** Workers with CPUs and a vacant GPU, by vacant CPUs. */
  private final VacancyIndex<PoolWorker> cpuWithGpuIndex = new VacancyIndex<>();
  /** GPUs that may take a share or a budget, by {@link PoolWorker#shareKey}. */
  private final VacancyIndex<PoolWorker.GpuSlot> shareIndex = new VacancyIndex<>();
  /** GPUs that may take a budget, by {@link PoolWorker#budgetKey}. */
  private final VacancyIndex<PoolWorker.GpuSlot> budgetIndex = new VacancyIndex<>();
  private final PoolShapes shapes = new PoolShapes();
  /** Changes of workers, jobs and service states so far: see {@link #version()}. */
  private long changes;
  /** The empty copy of this pool that groups' feasibility is tried on: see {@link #twin()}. */
  private ResourcePool twin;
  private long twinAt = -1;
  /** Why each group asked about could never be placed, at the shape version of {@link #twin}. */
  private final Map<GroupRequest, Optional<PoolShapes.Verdict>> groupVerdicts = new HashMap<>();

  // ---- workers ------------------------------------------------------------------------------

  /**
   * Adds a worker that lends {@code cpus} CPUs and the GPUs with the given ids, known by index alone
   * ({@link GpuSpec#ofIndex}).
   *
   * @throws IllegalArgumentException if the id is taken or blank, the CPU count is negative, a GPU id is
   *     null, negative or repeated, or the worker lends nothing
   */
  public void addWorker(String workerId, int cpus, Collection<Integer> gpuIds) {
    List<GpuSpec> specs = new ArrayList<>(gpuIds.size());
    for (Integer id : gpuIds) {
      if (id == null || id < 0) {
        throw new IllegalArgumentException("worker " + workerId + " offers an invalid GPU id: " + id);
      }
      specs.add(GpuSpec.ofIndex(id));
    }
    addWorker(workerId, cpus, specs);
  }

  /**
   * Adds a worker that lends {@code cpus} CPUs and the given GPUs, all vacant and in service.
   *
   * @throws IllegalArgumentException if the id is taken or blank, the CPU count is negative, a GPU is
   *     null or its index or UUID repeats, or the worker lends nothing
   */
  public void addWorker(String workerId, int cpus, List<GpuSpec> gpus) {
    if (workerId == null || workerId.isBlank()) {
      throw new IllegalArgumentException("a worker needs an id");
    }
    if (workers.containsKey(workerId)) {
      throw new IllegalArgumentException("worker " + workerId + " is already in the pool");
    }
    if (cpus < 0) {
      throw new IllegalArgumentException("worker " + workerId + " offers a negative CPU count: " + cpus);
    }
    Set<Integer> indexes = new HashSet<>();
    Set<String> uuids = new HashSet<>();
    for (GpuSpec g : gpus) {
      if (g == null) {
        throw new IllegalArgumentException("worker " + workerId + " offers a GPU that is null");
      }
      if (!indexes.add(g.index())) {
        throw new IllegalArgumentException("worker " + workerId + " offers GPU " + g.index() + " twice");
      }
      if (!uuids.add(g.uuid())) {
        throw new IllegalArgumentException("worker " + workerId + " offers two GPUs with UUID " + g.uuid());
      }
    }
    if (cpus == 0 && gpus.isEmpty()) {
      throw new IllegalArgumentException("worker " + workerId + " offers neither CPUs nor GPUs");
    }
    GpuSpec[] sorted = gpus.toArray(new GpuSpec[0]);
    Arrays.sort(sorted, Comparator.comparingInt(GpuSpec::index));
    PoolWorker w = new PoolWorker(workerId, cpus, sorted);
    workers.put(workerId, w);
    changes++;
    shapes.add(workerId, PoolShapes.Shape.of(cpus, sorted));
    if (w.gpuTotal() > 0) {
      gpuIndex.add(w.gpuNode, w.vacantGpus);
    }
    if (w.cpusTotal > 0) {
      w.cpuNodeWithGpu = w.vacantGpus > 0;
      cpuIndexOf(w).add(w.cpuNode, w.cpusOffered());
    }
    for (int s = 0; s < w.gpuTotal(); s++) {
      file(w, s);
    }
  }

  /**
   * Removes a worker and everything it lent.
   *
   * @return the allocations that were held on it (now lost), empty if the worker was unknown
   */
  public List<Allocation> removeWorker(String workerId) {
    PoolWorker w = workers.remove(workerId);
    if (w == null) {
      return List.of();
    }
    changes++;
    shapes.remove(workerId, PoolShapes.Shape.of(w.cpusTotal, w.gpus));
    if (w.gpuTotal() > 0) {
      gpuIndex.remove(w.gpuNode);
    }
    if (w.cpusTotal > 0) {
      cpuIndexOf(w).remove(w.cpuNode);
    }
    for (PoolWorker.GpuSlot g : w.slots) {
      if (g.node.vacancy >= 0) {
        shareIndex.remove(g.node);
      }
      if (g.budgetNode.vacancy >= 0) {
        budgetIndex.remove(g.budgetNode);
      }
    }
    List<Allocation> lost = new ArrayList<>(w.jobs.values());
    for (Allocation a : lost) {
      allocations.remove(a.jobId());
    }
    return lost;
  }

  // ---- service states -----------------------------------------------------------------------

  /**
   * Drains a worker (nothing new is placed on it; its jobs keep what they hold) or returns it to
   * service. A drained worker's GPUs with nothing held are listed as out of service, not vacant.
   *
   * @throws IllegalArgumentException if the worker is unknown
   */
  public void setWorkerDrained(String workerId, boolean drained) {
    PoolWorker w = require(workerId);
    w.drained = drained;
    refile(w);
  }

  /**
   * Drains one GPU (nothing new is placed on it) or returns it to service.
   *
   * @throws IllegalArgumentException if the worker or the GPU is unknown
   */
  public void setGpuDrained(String workerId, int gpuIndex, boolean drained) {
    PoolWorker w = require(workerId);
    w.setGpuDrained(requireSlot(w, gpuIndex), drained);
    refile(w);
  }

  /**
   * Quarantines one GPU as unhealthy (offered to no one) or lifts the quarantine.
   *
   * @return the allocations holding that GPU, which the caller tells and stops as it chooses
   * @throws IllegalArgumentException if the worker or the GPU is unknown
   */
  public List<Allocation> setGpuQuarantined(String workerId, int gpuIndex, boolean quarantined) {
    PoolWorker w = require(workerId);
    int s = requireSlot(w, gpuIndex);
    w.setQuarantined(s, quarantined);
    refile(w);
    return w.holders(s);
  }

  // ---- jobs ---------------------------------------------------------------------------------

  /**
   * Takes resources for a job by the placement rules of this class.
   *
   * @return the allocation, or empty when no worker can hold the request right now
   * @throws IllegalArgumentException if the job already holds resources
   */
  public Optional<Allocation> allocate(String jobId, ResourceRequest request) {
    if (allocations.containsKey(jobId)) {
      throw new IllegalArgumentException("job " + jobId + " already holds resources");
    }
    Placement p = find(request, null);
    return p == null ? Optional.empty() : Optional.of(take(jobId, request, p));
  }

  /**
   * Records a job that already holds exactly these resources (a new active master adopting what a
   * worker reports it runs, docs/contract.md §10). Service states do not matter: a job keeps what it holds.
   *
   * @throws IllegalArgumentException naming the conflict if the job id is taken, the worker is unknown,
   *     or the CPUs, GPUs, shares or budgets do not fit beside what is held already
   */
  public void adopt(Allocation a) {
    if (allocations.containsKey(a.jobId())) {
      throw new IllegalArgumentException("job " + a.jobId() + " already holds resources");
    }
    PoolWorker w = workers.get(a.workerId());
    if (w == null) {
      throw new IllegalArgumentException("worker " + a.workerId() + " of job " + a.jobId() + " is not in the pool");
    }
    String job = "job " + a.jobId();
    if (a.cpus() < 0 || a.cpus() > w.cpusVacant()) {
      throw new IllegalArgumentException(job + " holds " + a.cpus() + " CPU(s) but " + w.id + " has " + w.cpusVacant() + " vacant");
    }
    Set<Integer> seen = new HashSet<>();
    for (int g : a.gpus()) {
      int s = w.slotOf(g);
      if (s < 0) {
        throw new IllegalArgumentException(job + " holds GPU " + g + ", which " + w.id + " does not lend");
      }
      if (!seen.add(g)) {
        throw new IllegalArgumentException(job + " holds GPU " + g + " of " + w.id + " twice");
      }
      String gpu = "GPU " + g + " of " + w.id;
      if (a.wholeGpus() && !w.untouched(s)) {
        throw new IllegalArgumentException(job + " holds " + gpu + " whole, but other jobs hold "
            + Texts.share(w.units(s)) + " and " + w.budgets(s) + " MiB of it");
      }
      if (!a.wholeGpus() && w.wholeHeld(s)) {
        throw new IllegalArgumentException(job + " holds a share of " + gpu + ", which another job holds whole");
      }
      if (!a.wholeGpus() && w.units(s) + a.gpuShare() > UNITS) {
        throw new IllegalArgumentException(job + " holds " + Texts.share(a.gpuShare()) + " of " + gpu + ", but only "
            + Texts.share(UNITS - w.units(s)) + " is free");
      }
      if (a.gpuMemoryMb() > 0 && a.gpuMemoryMb() > w.memoryFree(s)) {
        throw new IllegalArgumentException(job + " holds a budget of " + a.gpuMemoryMb() + " MiB on " + gpu + ", but only "
            + Math.max(0, w.memoryFree(s)) + " MiB of its " + w.gpus[s].memoryMb() + " MiB are free");
      }
    }
    hold(w, a);
  }

  /**
   * Returns a job's resources to its worker.
   *
   * @return the released allocation, or empty if the job holds nothing (unknown, released twice, or
   *     lost with its worker)
   */
  public Optional<Allocation> release(String jobId) {
    Allocation a = allocations.remove(jobId);
    if (a == null) {
      return Optional.empty();
    }
    PoolWorker w = workers.get(a.workerId());
    w.giveBack(a);
    refile(w, a);
    return Optional.of(a);
  }

  // ---- placement groups ---------------------------------------------------------------------

  /**
   * Takes resources for every bundle of a placement group now, or for none: each bundle becomes one
   * allocation under its own job id, drawn from {@code jobIds} (in bundle order) only once the whole
   * group is placed. Bundles go, larger first, by the placement rules of this class, shaped by the
   * strategy: STRICT_PACK tries a few workers that could hold all bundles together, then one worker of
   * each shape; STRICT_SPREAD gives every bundle a worker of its own; PACK puts a bundle on a worker the
   * group already uses when one holds it, SPREAD on a worker it does not use yet when one holds it.
   *
   * @return the allocations in bundle order, or empty (the pool unchanged) when the group cannot be
   *     placed now
   * @throws IllegalArgumentException if the group is null, or {@code jobIds} gives a null id, an id that
   *     holds resources already, or one id twice (then nothing is taken)
   */
  public Optional<List<Allocation>> allocateGroup(Supplier<String> jobIds, GroupRequest g) {
    return allocateGroup(jobIds, g, null);
  }

  /** {@link #allocateGroup(Supplier, GroupRequest)} skipping the workers that {@code avoid} names (null: none). */
  Optional<List<Allocation>> allocateGroup(Supplier<String> jobIds, GroupRequest g, Predicate<String> avoid) {
    requireGroup(g);
    Allocation[] held = place(g, avoid);
    return held == null ? Optional.empty() : Optional.of(commit(jobIds, held));
  }

  /**
   * Places bundle {@code i} of the group on worker {@code plan.get(i)}, all or nothing, in the order
   * {@link #allocateGroup} places them; empty when one does not fit there now.
   */
  Optional<List<Allocation>> allocateGroupOn(Supplier<String> jobIds, GroupRequest g, List<String> plan) {
    long before = changes;
    Allocation[] held = new Allocation[g.size()];
    for (int i : order(g)) {
      PoolWorker w = workers.get(plan.get(i));
      Placement p = w == null ? null : findOn(w, g.bundles().get(i));
      if (p == null) {
        undo(held);
        changes = before;
        return Optional.empty();
      }
      held[i] = take(ATTEMPT + i, g.bundles().get(i), p);
    }
    return Optional.of(commit(jobIds, held));
  }

  /**
   * Why the group could never be placed, whatever the load and service states: a bundle that no worker
   * could ever hold ("bundle 2 (4 GPUs): no worker lends 4 GPUs; ..."), or the strategy that the
   * workers cannot meet together. Worked out on an empty copy of the pool with the placement of
   * {@link #allocateGroup}, once per group while no worker joins or leaves.
   *
   * @return empty when the group could be placed on the pool with every job ended and everything in service
   * @throws IllegalArgumentException if the group is null
   */
  public Optional<String> groupNeverFits(GroupRequest g) {
    return groupVerdict(g).map(PoolShapes.Verdict::sentence);
  }

  /**
   * True when the group could be placed once every job ended and everything is back in service.
   *
   * @throws IllegalArgumentException if the group is null
   */
  public boolean canEverFitGroup(GroupRequest g) {
    return groupVerdict(g).isEmpty();
  }

  Optional<PoolShapes.Verdict> groupVerdict(GroupRequest g) {
    requireGroup(g);
    ResourcePool empty = twin();
    return groupVerdicts.computeIfAbsent(g, x -> empty.whyNever(x));
  }

  /**
   * Workers for the bundles of a group that fits nowhere now, one per bundle, none of them
   * {@code blocked} or out of service, such that the group could be placed on them once they are empty
   * ({@link #allocateGroupOn}). Where it can, each bundle gets a worker of its own picked as
   * {@link #reservationFor} picks one (STRICT_PACK: one worker for all); else the placement on an empty
   * copy of the pool decides. Null when there is none.
   */
  List<String> planFor(GroupRequest g, Predicate<String> blocked) {
    Predicate<String> closed = id -> !inService(id) || (blocked != null && blocked.test(id));
    if (g.strategy() != PlacementStrategy.STRICT_PACK) {
      String[] plan = new String[g.size()];
      Set<String> planned = new HashSet<>();
      for (int i : order(g)) {
        plan[i] = reservationFor(g.bundles().get(i), id -> closed.test(id) || planned.contains(id));
        if (plan[i] == null) {
          break;
        }
        planned.add(plan[i]);
      }
      if (planned.size() == g.size()) {
        return List.of(plan);
      }
    }
    ResourcePool empty = twin();
    Allocation[] held = empty.place(g, closed);
    if (held == null) {
      return null;
    }
    List<String> plan = new ArrayList<>(held.length);
    for (Allocation a : held) {
      plan.add(a.workerId());
    }
    empty.undo(held);
    return plan;
  }

  /** Whether the group could be placed now, on any worker; the pool is left as it was. */
  boolean groupFitsNow(GroupRequest g) {
    long before = changes;
    Allocation[] held = place(g, null);
    if (held == null) {
      return false;
    }
    undo(held);
    changes = before;
    return true;
  }

  /**
   * The same holding under another job id: the JobCenter hands a bundle's allocation to successive
   * actors, each with a job id of its own.
   *
   * @return the allocation under its new id
   * @throws IllegalArgumentException if {@code jobId} holds nothing, or {@code newJobId} is null or holds
   *     resources already (itself included)
   */
  public Allocation rename(String jobId, String newJobId) {
    Allocation a = allocations.get(jobId);
    if (a == null) {
      throw new IllegalArgumentException("job " + jobId + " holds no resources to rename");
    }
    if (newJobId == null) {
      throw new IllegalArgumentException("job " + jobId + " cannot be renamed to null");
    }
    if (allocations.containsKey(newJobId)) {
      throw new IllegalArgumentException("job " + newJobId + " already holds resources");
    }
    Allocation renamed = new Allocation(newJobId, a.workerId(), a.cpus(), a.gpus(), a.gpuShare(), a.gpuMemoryMb());
    PoolWorker w = workers.get(a.workerId());
    allocations.remove(jobId);
    w.jobs.remove(jobId);
    allocations.put(newJobId, renamed);
    w.jobs.put(newJobId, renamed);
    changes++;
    return renamed;
  }

  // ---- feasibility and reasons --------------------------------------------------------------

  /**
   * Why no worker of the pool could ever hold the request, whatever its load and service state.
   *
   * @return empty when some worker could hold it with everything vacant and in service; else one
   *     sentence, without a final period, naming the largest worker, the models present, the largest GPU
   *     memory, or that no worker lends CPUs or GPUs. Its cost grows with the distinct worker shapes,
   *     not with the workers.
   */
  public Optional<String> neverFits(ResourceRequest r) {
    return shapes.neverFits(r).map(PoolShapes.Verdict::sentence);
  }

  /** True when some worker could hold the request once its jobs end and it is in service. */
  public boolean canEverFit(ResourceRequest r) {
    return shapes.canEverFit(r);
  }

  /**
   * Per worker, the one constraint that stops the request in the pool as it is now ("w-3: 1 of 2 GPUs
   * vacant", "w-2: drained"), with alike workers grouped ("w-3, w-4 and 997 more: ..."), the closest to
   * fitting first; a worker that could hold it reads "fits now". One pass over the workers.
   *
   * @param maxLines the most lines returned; when there are more groups, the last line counts the workers
   *     of the rest (with one line, the closest group alone)
   * @throws IllegalArgumentException if {@code maxLines} is below 1
   */
  public List<String> explain(ResourceRequest r, int maxLines) {
    return explanation(r, maxLines).lines();
  }

  Explanation explanation(ResourceRequest r, int maxLines) {
    return Explanation.of(workers.values(), r, maxLines);
  }

  Optional<PoolShapes.Verdict> verdict(ResourceRequest r) {
    return shapes.neverFits(r);
  }

  long shapeVersion() {
    return shapes.version();
  }

  /**
   * A number that changes with every change of the pool (a worker joined or left, a job came or went, a
   * service state changed): what was worked out from the pool holds while it stays the same.
   */
  long version() {
    return changes;
  }

  // ---- views --------------------------------------------------------------------------------

  public int workerCount() {
    return workers.size();
  }

  public int allocationCount() {
    return allocations.size();
  }

  /** Snapshot of one worker, or empty if unknown. */
  public Optional<WorkerView> worker(String workerId) {
    PoolWorker w = workers.get(workerId);
    return w == null ? Optional.empty() : Optional.of(w.view());
  }

  /** Snapshots of all workers in the order they joined. */
  public List<WorkerView> workers() {
    List<WorkerView> views = new ArrayList<>(workers.size());
    for (PoolWorker w : workers.values()) {
      views.add(w.view());
    }
    return views;
  }

  // ---- for the scheduler --------------------------------------------------------------------

  /**
   * Where the request would be placed now, skipping workers that {@code avoid} names (null: none).
   * Drained workers are never found: they are filed with no vacancy and no share slot.
   */
  Placement find(ResourceRequest r, Predicate<String> avoid) {
    if (r.gpus() > 0) {
      PoolWorker w = gpuIndex.first(r.gpus(), x -> allowed(x, avoid) && x.pickWhole(r) != null);
      return w == null ? null : new Placement(w, w.pickWhole(r));
    }
    if (r.wantsGpu()) {
      Predicate<PoolWorker.GpuSlot> fits = x -> allowed(x.worker, avoid) && x.worker.cpusVacant() >= r.cpus()
          && x.worker.shareFits(x.slot, r);
      PoolWorker.GpuSlot g = r.gpuShare() > 0
          ? shareIndex.first(PoolWorker.shareKeyFloor(r.gpuShare()), fits)
          : budgetIndex.first(PoolWorker.budgetBucket(r.gpuMemoryMb()), fits);
      if (g != null) {
        return new Placement(g.worker, new int[] {g.slot});
      }
      // no partly used GPU fits: an untouched one, on the worker with the fewest vacant GPUs that has one
      PoolWorker w = gpuIndex.first(1, x -> allowed(x, avoid) && x.pickUntouched(r) >= 0);
      return w == null ? null : new Placement(w, new int[] {w.pickUntouched(r)});
    }
    PoolWorker w = cpuNoGpuIndex.first(r.cpus(), x -> allowed(x, avoid));
    if (w == null) {
      w = cpuWithGpuIndex.first(r.cpus(), x -> allowed(x, avoid));
    }
    return w == null ? null : new Placement(w, new int[0]);
  }

  /** Takes what {@link #find} chose. */
  Allocation take(String jobId, ResourceRequest r, Placement p) {
    if (allocations.containsKey(jobId)) {
      throw new IllegalArgumentException("job " + jobId + " already holds resources");
    }
    PoolWorker w = p.worker();
    List<Integer> ids = new ArrayList<>(p.slots().length);
    for (int s : p.slots()) {
      ids.add(w.gpuIndex(s));
    }
    Allocation a;
    if (r.gpus() > 0) {
      a = new Allocation(jobId, w.id, r.cpus(), ids, UNITS, r.gpuMemoryMb());
    } else if (r.wantsGpu()) {
      a = new Allocation(jobId, w.id, r.cpus(), ids, r.gpuShare(), r.gpuMemoryMb());
    } else {
      a = new Allocation(jobId, w.id, r.cpus(), ids);
    }
    hold(w, a);
    return a;
  }

  /**
   * The worker that could hold a request that fits nowhere now soonest: in service, able to hold it
   * whole, not {@code blocked}, with the most of what it needs already vacant (vacant GPUs; free units
   * of its freest GPU; vacant CPUs); ties go to the worker filed first. Null when there is none.
   */
  String reservationFor(ResourceRequest r, Predicate<String> blocked) {
    Predicate<PoolWorker> open = w -> !w.drained && (blocked == null || !blocked.test(w.id)) && w.cpusTotal >= r.cpus();
    PoolWorker w;
    if (r.gpus() > 0) {
      w = gpuIndex.last(Integer.MAX_VALUE, x -> open.test(x) && inServiceCapable(x, r) >= r.gpus());
    } else if (r.wantsGpu()) {
      Predicate<PoolWorker.GpuSlot> able = x -> open.test(x.worker) && x.worker.capable(x.slot, r);
      PoolWorker.GpuSlot g = r.gpuShare() > 0 ? shareIndex.last(Integer.MAX_VALUE, able) : budgetIndex.last(Integer.MAX_VALUE, able);
      w = g != null ? g.worker : null;
      if (w == null) {
        // Every GPU that could hold it is full or held whole: any worker with one in service will do.
        for (PoolWorker x : workers.values()) {
          if (open.test(x) && inServiceCapable(x, r) > 0) {
            w = x;
            break;
          }
        }
      }
    } else {
      PoolWorker a = cpuNoGpuIndex.last(Integer.MAX_VALUE, open);
      PoolWorker b = cpuWithGpuIndex.last(Integer.MAX_VALUE, open);
      w = b == null || (a != null && a.cpusOffered() >= b.cpusOffered()) ? a : b;
    }
    return w == null ? null : w.id;
  }

  /** The workers, in the order they joined (for the victim search). */
  Collection<PoolWorker> workerList() {
    return workers.values();
  }

  /** Whether the job holds resources in the pool. */
  public boolean holds(String jobId) {
    return allocations.containsKey(jobId);
  }

  /** Whether the worker is in the pool and not drained. */
  boolean inService(String workerId) {
    PoolWorker w = workers.get(workerId);
    return w != null && !w.drained;
  }

  /**
   * False only when no CPU, no whole GPU and no GPU open to shares is vacant anywhere, so that nothing
   * waiting can be placed: the scheduler then skips its walk.
   */
  boolean anythingVacant() {
    return cpuNoGpuIndex.anyAtLeast(1) || cpuWithGpuIndex.anyAtLeast(1) || gpuIndex.anyAtLeast(1) || shareIndex.size() > 0
        || budgetIndex.size() > 0;
  }

  // ---- invariants ---------------------------------------------------------------------------

  /**
   * Verifies the accounting exactly: per GPU, the units held are the sum of its jobs' units (whole =
   * {@link GpuAmount#UNITS_PER_GPU}) and at most that; the budgets held are their sum and within
   * its memory; no GPU is held whole and shared; vacant, used and out-of-service GPUs partition each
   * worker's GPUs; CPU counts stay within [0, total]; every allocation belongs to a live worker; and
   * every index files each worker (and GPU) under its current vacancy.
   *
   * @throws IllegalStateException describing the first violation found
   */
  public void checkInvariants() {
    int gpuListed;
    int cpuListed;
    int shareListed;
    int budgetListed;
    try {
      gpuListed = gpuIndex.verify();
      cpuListed = cpuNoGpuIndex.verify() + cpuWithGpuIndex.verify();
      shareListed = shareIndex.verify();
      budgetListed = budgetIndex.verify();
    } catch (IllegalStateException e) {
      throw new IllegalStateException("pool invariant broken: " + e.getMessage(), e);
    }
    int gpuIndexed = 0;
    int cpuIndexed = 0;
    int shareIndexed = 0;
    int budgetIndexed = 0;
    int jobs = 0;
    for (PoolWorker w : workers.values()) {
      jobs += checkWorker(w);
      if (w.gpuTotal() > 0) {
        gpuIndexed++;
        if (!gpuIndex.contains(w.gpuNode, w.vacantGpus)) {
          fail(w.id + " is not indexed at its GPU vacancy " + w.vacantGpus);
        }
      }
      if (w.cpusTotal > 0) {
        cpuIndexed++;
        if (w.cpuNodeWithGpu != (w.vacantGpus > 0) || !cpuIndexOf(w).contains(w.cpuNode, w.cpusOffered())) {
          fail(w.id + " is not indexed at its CPU vacancy " + w.cpusOffered());
        }
      }
      for (int s = 0; s < w.gpuTotal(); s++) {
        int key = w.shareKey(s);
        if (key >= 0) {
          shareIndexed++;
        }
        if (!shareIndex.contains(w.slots[s].node, key)) {
          fail("GPU " + w.gpuIndex(s) + " of " + w.id + " is not indexed at its share key " + key);
        }
        int bucket = w.budgetKey(s);
        if (bucket >= 0) {
          budgetIndexed++;
        }
        if (!budgetIndex.contains(w.slots[s].budgetNode, bucket)) {
          fail("GPU " + w.gpuIndex(s) + " of " + w.id + " is not indexed at its budget key " + bucket);
        }
      }
    }
    if (jobs != allocations.size()) {
      fail(allocations.size() + " allocations recorded but workers hold " + jobs);
    }
    if (gpuListed != gpuIndexed || cpuListed != cpuIndexed || shareListed != shareIndexed || budgetListed != budgetIndexed) {
      fail("vacancy indexes hold stale workers");
    }
    if (shapes.workerCount() != workers.size()) {
      fail("the shapes count " + shapes.workerCount() + " workers, the pool " + workers.size());
    }
  }

  /** Checks one worker's accounting; returns its job count. */
  private int checkWorker(PoolWorker w) {
    int n = w.gpuTotal();
    int[] units = new int[n];
    long[] budgets = new long[n];
    int[] wholeHolders = new int[n];
    int[] shareHolders = new int[n];
    int cpus = 0;
    for (Allocation a : w.jobs.values()) {
      if (allocations.get(a.jobId()) != a) {
        fail("job " + a.jobId() + " on " + w.id + " is not in the allocation table");
      }
      if (!a.workerId().equals(w.id)) {
        fail("job " + a.jobId() + " is filed on " + w.id + " but names " + a.workerId());
      }
      cpus += a.cpus();
      for (int g : a.gpus()) {
        int s = w.slotOf(g);
        if (s < 0) {
          fail("job " + a.jobId() + " holds GPU " + g + " that " + w.id + " does not have");
        }
        units[s] += a.gpuShare();
        budgets[s] += a.gpuMemoryMb();
        if (a.wholeGpus()) {
          wholeHolders[s]++;
        } else {
          shareHolders[s]++;
        }
      }
    }
    int vacant = 0;
    for (int s = 0; s < n; s++) {
      String gpu = "GPU " + w.gpuIndex(s) + " of " + w.id;
      if (units[s] != w.units(s) || units[s] > UNITS) {
        fail(gpu + " records " + w.units(s) + " units held, its jobs hold " + units[s]);
      }
      if (budgets[s] != w.budgets(s) || (budgets[s] > 0 && budgets[s] > w.gpus[s].memoryMb())) {
        fail(gpu + " records " + w.budgets(s) + " MiB of budgets, its jobs hold " + budgets[s] + " of " + w.gpus[s].memoryMb());
      }
      if (w.untouched(s) != (units[s] == 0 && budgets[s] == 0)) {
        fail(gpu + " is marked " + (w.untouched(s) ? "" : "not ") + "untouched");
      }
      if (wholeHolders[s] > 1 || (wholeHolders[s] == 1 && shareHolders[s] > 0)) {
        fail(gpu + " is held whole by " + wholeHolders[s] + " job(s) and shared by " + shareHolders[s]);
      }
      if (w.wholeHeld(s) != (wholeHolders[s] == 1)) {
        fail(gpu + " is marked " + (w.wholeHeld(s) ? "" : "not ") + "held whole");
      }
      if (w.untouched(s) && w.inService(s)) {
        vacant++;
      }
    }
    if (vacant != w.vacantGpus) {
      fail(w.id + " counts " + w.vacantGpus + " vacant GPUs but has " + vacant);
    }
    if (cpus != w.cpusUsed || w.cpusUsed < 0 || w.cpusUsed > w.cpusTotal) {
      fail("CPU count of " + w.id + " is " + w.cpusUsed + "/" + w.cpusTotal + ", jobs hold " + cpus);
    }
    WorkerView v = w.view();
    Set<Integer> listed = new HashSet<>();
    listed.addAll(v.vacantGpus());
    listed.addAll(v.usedGpus());
    listed.addAll(v.outOfServiceGpus());
    if (listed.size() != n || v.vacantGpus().size() + v.usedGpus().size() + v.outOfServiceGpus().size() != n) {
      fail("the vacant, used and out-of-service GPUs of " + w.id + " do not partition its " + n + " GPUs");
    }
    return w.jobs.size();
  }

  // ---- placement groups: internals ------------------------------------------------------------

  /** Job ids of a group's bundles while it is being placed, renamed once every bundle holds. */
  private static final String ATTEMPT = "\u0000bundle-";
  /** Workers found for all of a STRICT_PACK group's needs together, tried before one worker of each shape. */
  private static final int PACK_TRIES = 8;
  /** Group verdicts kept at one shape version; beyond this many distinct groups the cache starts again. */
  private static final int VERDICTS_KEPT = 1024;

  /**
   * Places every bundle under attempt ids ({@link #ATTEMPT}), in bundle order in the array; null, with
   * the pool as it was, when one does not fit.
   */
  private Allocation[] place(GroupRequest g, Predicate<String> avoid) {
    long before = changes;
    Allocation[] held = new Allocation[g.size()];
    int[] order = order(g);
    boolean placed = g.strategy() == PlacementStrategy.STRICT_PACK ? strictPack(g, order, avoid, held)
        : bundleByBundle(g, order, avoid, held);
    if (!placed) {
      undo(held);
      changes = before;
      return null;
    }
    return held;
  }

  /** STRICT_PACK: the first few workers that have all the group needs vacant, then one worker of each shape. */
  private boolean strictPack(GroupRequest g, int[] order, Predicate<String> avoid, Allocation[] held) {
    ResourceRequest floor = floor(g);
    Set<String> tried = new HashSet<>();
    Predicate<String> skip = id -> (avoid != null && avoid.test(id)) || tried.contains(id);
    for (int t = 0; t < PACK_TRIES; t++) {
      Placement p = find(floor, skip);
      if (p == null) {
        break;
      }
      if (packOn(p.worker(), g, order, held)) {
        return true;
      }
      tried.add(p.worker().id);
    }
    // Alike workers fail alike when empty, so one of each shape settles whether the group ever fits.
    for (String id : shapes.representatives()) {
      if (!skip.test(id) && packOn(workers.get(id), g, order, held)) {
        return true;
      }
    }
    return false;
  }

  /** Every bundle on {@code w}, or none (what was taken there is given back). */
  private boolean packOn(PoolWorker w, GroupRequest g, int[] order, Allocation[] held) {
    for (int k = 0; k < order.length; k++) {
      int i = order[k];
      Placement p = findOn(w, g.bundles().get(i));
      if (p == null) {
        undo(held);
        Arrays.fill(held, null);
        return false;
      }
      held[i] = take(ATTEMPT + i, g.bundles().get(i), p);
    }
    return true;
  }

  /** PACK, SPREAD and STRICT_SPREAD: each bundle in turn, on the workers the strategy prefers first. */
  private boolean bundleByBundle(GroupRequest g, int[] order, Predicate<String> avoid, Allocation[] held) {
    PlacementStrategy s = g.strategy();
    List<PoolWorker> used = new ArrayList<>();
    Set<String> usedIds = new HashSet<>();
    Predicate<String> unused = id -> (avoid != null && avoid.test(id)) || usedIds.contains(id);
    for (int i : order) {
      ResourceRequest b = g.bundles().get(i);
      Placement p = null;
      if (s == PlacementStrategy.PACK) {
        for (int u = 0; u < used.size() && p == null; u++) {
          p = findOn(used.get(u), b);
        }
      } else {
        p = find(b, unused);
      }
      if (p == null && (s == PlacementStrategy.PACK || (s == PlacementStrategy.SPREAD && !used.isEmpty()))) {
        p = find(b, avoid);
      }
      if (p == null) {
        return false;
      }
      held[i] = take(ATTEMPT + i, b, p);
      if (usedIds.add(p.worker().id)) {
        used.add(p.worker());
      }
    }
    return true;
  }

  /**
   * Where {@code r} would go on {@code w} now, by the rules of this class on one worker: the lowest
   * vacant whole GPUs; for a share or a budget alone, the partly used GPU that suffices with the fewest
   * free units (for a budget alone, the least free memory), else an untouched one; null when it does not fit.
   */
  private static Placement findOn(PoolWorker w, ResourceRequest r) {
    if (w.drained || w.cpusVacant() < r.cpus()) {
      return null;
    }
    if (r.gpus() > 0) {
      int[] slots = w.pickWhole(r);
      return slots == null ? null : new Placement(w, slots);
    }
    if (!r.wantsGpu()) {
      return new Placement(w, new int[0]);
    }
    int best = -1;
    for (int s = 0; s < w.gpuTotal(); s++) {
      if (!w.untouched(s) && w.shareFits(s, r) && (best < 0 || tighter(w, s, best, r))) {
        best = s;
      }
    }
    if (best < 0) {
      best = w.pickUntouched(r);
    }
    return best < 0 ? null : new Placement(w, new int[] {best});
  }

  /** Whether GPU slot {@code s} leaves less room than {@code t} for what {@code r} asks. */
  private static boolean tighter(PoolWorker w, int s, int t, ResourceRequest r) {
    return r.gpuShare() > 0 ? w.units(s) > w.units(t) : w.memoryFree(s) < w.memoryFree(t);
  }

  /**
   * What a worker must have vacant to hold every bundle of the group together (a lower bound): their
   * CPUs and whole GPUs summed, of their model when they share one, each GPU with the smallest memory
   * they ask; with no whole GPUs, the largest share.
   */
  private static ResourceRequest floor(GroupRequest g) {
    long cpus = 0;
    long whole = 0;
    String model = null;
    boolean oneModel = true;
    long memory = Long.MAX_VALUE;
    ResourceRequest largestShare = null;
    for (ResourceRequest b : g.bundles()) {
      cpus += b.cpus();
      if (b.gpus() > 0) {
        oneModel &= whole == 0 || Objects.equals(model, b.gpuModel());
        model = b.gpuModel();
        whole += b.gpus();
        memory = Math.min(memory, b.gpuMemoryMb());
      } else if (b.wantsGpu() && (largestShare == null || b.gpuShare() > largestShare.gpuShare())) {
        largestShare = b;
      }
    }
    int c = (int) Math.min(cpus, ResourceRequest.MAX_COUNT);
    if (whole > 0) {
      return new ResourceRequest(c, (int) Math.min(whole, ResourceRequest.MAX_COUNT), 0, memory, oneModel ? model : null);
    }
    return largestShare != null ? largestShare.withCpus(c) : ResourceRequest.ofCpus(c);
  }

  /** The bundles' indexes, larger bundles first (whole GPUs, share, budget, CPUs), ties in bundle order. */
  private static int[] order(GroupRequest g) {
    Integer[] order = new Integer[g.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    List<ResourceRequest> b = g.bundles();
    Arrays.sort(order, Comparator.<Integer>comparingInt(i -> -b.get(i).gpus())
        .thenComparingInt(i -> -b.get(i).gpuShare())
        .thenComparingLong(i -> -b.get(i).gpuMemoryMb())
        .thenComparingInt(i -> -b.get(i).cpus()));
    int[] out = new int[order.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = order[i];
    }
    return out;
  }

  /** Gives the attempt ids their job ids from {@code jobIds}, in bundle order; on a bad id gives all back. */
  private List<Allocation> commit(Supplier<String> jobIds, Allocation[] held) {
    String[] ids = new String[held.length];
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < held.length; i++) {
      String id = jobIds.get();
      String wrong = id == null ? "the job id given for bundle " + i + " is null"
          : allocations.containsKey(id) ? "job " + id + " already holds resources"
          : !seen.add(id) ? "job id " + id + " is given to two bundles" : null;
      if (wrong != null) {
        undo(held);
        throw new IllegalArgumentException(wrong);
      }
      ids[i] = id;
    }
    List<Allocation> out = new ArrayList<>(held.length);
    for (int i = 0; i < held.length; i++) {
      out.add(rename(held[i].jobId(), ids[i]));
    }
    return out;
  }

  /** Gives back what an attempt holds. */
  private void undo(Allocation[] held) {
    for (Allocation a : held) {
      if (a != null) {
        release(a.jobId());
      }
    }
  }

  /**
   * The same workers as this pool's, with nothing held and everything in service, made again when a
   * worker joined or left: where a group's feasibility is tried with the placement itself.
   */
  private ResourcePool twin() {
    if (twin == null || twinAt != shapes.version()) {
      ResourcePool t = new ResourcePool();
      for (PoolWorker w : workers.values()) {
        t.addWorker(w.id, w.cpusTotal, Arrays.asList(w.gpus));
      }
      twin = t;
      twinAt = shapes.version();
      groupVerdicts.clear();
    }
    if (groupVerdicts.size() >= VERDICTS_KEPT) {
      groupVerdicts.clear();
    }
    return twin;
  }

  /** On an empty pool (the twin): why the group could never be placed, or empty. */
  private Optional<PoolShapes.Verdict> whyNever(GroupRequest g) {
    for (int i = 0; i < g.size(); i++) {
      ResourceRequest b = g.bundles().get(i);
      Optional<PoolShapes.Verdict> v = shapes.neverFits(b);
      if (v.isPresent()) {
        return Optional.of(new PoolShapes.Verdict(v.get().kind(), "bundle " + i + " (" + b + "): " + v.get().sentence()));
      }
    }
    long before = changes;
    Allocation[] held = place(g, null);
    if (held != null) {
      undo(held);
      changes = before;
      return Optional.empty();
    }
    int n = g.size();
    String sentence = switch (g.strategy()) {
      case STRICT_PACK -> "no worker could hold all " + n + " bundles together (STRICT_PACK); the largest worker is "
          + shapes.largest();
      case STRICT_SPREAD -> "no " + n + " distinct workers could hold the " + n + " bundles, one each (STRICT_SPREAD); "
          + Texts.count(shapes.workersHoldingAny(g.bundles()), "worker") + " could hold one of them";
      default -> "the workers could never hold all " + n + " bundles at once (" + g.strategy()
          + "): together they ask for more than the pool lends";
    };
    return Optional.of(new PoolShapes.Verdict(Stop.CAPACITY, sentence));
  }

  private static void requireGroup(GroupRequest g) {
    if (g == null) {
      throw new IllegalArgumentException("a placement group is needed, not null");
    }
  }

  // ---- internals ----------------------------------------------------------------------------

  private static boolean allowed(PoolWorker w, Predicate<String> avoid) {
    return avoid == null || !avoid.test(w.id);
  }

  private static int inServiceCapable(PoolWorker w, ResourceRequest r) {
    int n = 0;
    for (int s = 0; s < w.gpuTotal(); s++) {
      if (w.inService(s) && w.capable(s, r)) {
        n++;
      }
    }
    return n;
  }

  private void hold(PoolWorker w, Allocation a) {
    w.hold(a);
    allocations.put(a.jobId(), a);
    refile(w, a);
  }

  private VacancyIndex<PoolWorker> cpuIndexOf(PoolWorker w) {
    return w.cpuNodeWithGpu ? cpuWithGpuIndex : cpuNoGpuIndex;
  }

  /** Re-files a worker after a job came or went: its vacancies and the GPUs the job touched. */
  private void refile(PoolWorker w, Allocation a) {
    changes++;
    refileWorker(w);
    if (a.wholeGpus()) {
      return; // untouched before and held whole after, or the reverse: filed in neither GPU index either way
    }
    for (int g : a.gpus()) {
      file(w, w.slotOf(g));
    }
  }

  /** Re-files a worker and all its GPUs after a change of service state. */
  private void refile(PoolWorker w) {
    changes++;
    w.recount();
    refileWorker(w);
    for (int s = 0; s < w.gpuTotal(); s++) {
      file(w, s);
    }
  }

  private void refileWorker(PoolWorker w) {
    if (w.gpuTotal() > 0) {
      gpuIndex.move(w.gpuNode, w.vacantGpus);
    }
    if (w.cpusTotal > 0) {
      boolean withGpu = w.vacantGpus > 0;
      if (withGpu != w.cpuNodeWithGpu) {
        cpuIndexOf(w).remove(w.cpuNode);
        w.cpuNodeWithGpu = withGpu;
        cpuIndexOf(w).add(w.cpuNode, w.cpusOffered());
      } else {
        cpuIndexOf(w).move(w.cpuNode, w.cpusOffered());
      }
    }
  }

  private void file(PoolWorker w, int s) {
    file(shareIndex, w.slots[s].node, w.shareKey(s));
    file(budgetIndex, w.slots[s].budgetNode, w.budgetKey(s));
  }

  private static void file(VacancyIndex<PoolWorker.GpuSlot> index, VacancyIndex.Node<PoolWorker.GpuSlot> node, int key) {
    if (key < 0) {
      if (node.vacancy >= 0) {
        index.remove(node);
      }
    } else if (node.vacancy < 0) {
      index.add(node, key);
    } else {
      index.move(node, key);
    }
  }

  private PoolWorker require(String workerId) {
    PoolWorker w = workers.get(workerId);
    if (w == null) {
      throw new IllegalArgumentException("worker " + workerId + " is not in the pool");
    }
    return w;
  }

  private static int requireSlot(PoolWorker w, int gpuIndex) {
    int s = w.slotOf(gpuIndex);
    if (s < 0) {
      throw new IllegalArgumentException("worker " + w.id + " lends no GPU " + gpuIndex);
    }
    return s;
  }

  private static void fail(String message) {
    throw new IllegalStateException("pool invariant broken: " + message);
  }
}
