package org.parl.scheduler;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.parl.internal.resources.Allocation;
import org.parl.internal.resources.GpuAmount;
import org.parl.internal.resources.ResourceRequest;

/**
 * The mutable state of one worker of a {@link ResourcePool}: what it lends, what its jobs hold, and
 * the service state of it and of each GPU. It knows nothing of the pool's indexes; the pool re-files
 * it after every change.
 *
 * <p>GPUs live in slots, by ascending index. What placement reads of a GPU (its units, whether it is held
 * whole, has a budget, is drained or quarantined) is packed into one int per slot, so that placing or
 * releasing whole GPUs on a cold worker reads and writes one small array: with one array per field, each
 * was a cache miss of its own at 10 000 workers. The budgets' sums, read only for budgets, are apart.
 */
final class PoolWorker {

  static final int UNITS = GpuAmount.UNITS_PER_GPU;

  /** One GPU of a worker, as filed in the pool's share index. */
  static final class GpuSlot {
    final PoolWorker worker;
    final int slot;
    final VacancyIndex.Node<GpuSlot> node;
    final VacancyIndex.Node<GpuSlot> budgetNode;

    GpuSlot(PoolWorker worker, int slot) {
      this.worker = worker;
      this.slot = slot;
      this.node = new VacancyIndex.Node<>(this);
      this.budgetNode = new VacancyIndex.Node<>(this);
    }

    @Override
    public String toString() {
      return worker.id + "/GPU " + worker.gpus[slot].index();
    }
  }

  /**
   * Units held on a GPU, in the low bits of its state (up to 1023, and {@link #UNITS} is 1000): the sum of
   * the shares, or {@link #UNITS} when one job holds it whole. The pool never lets them pass {@link #UNITS},
   * so adding a share never carries into the flags above.
   */
  private static final int UNITS_MASK = 0x3FF;
  /** One job holds the GPU whole. */
  private static final int WHOLE = 1 << 10;
  /** Some budget is placed on the GPU ({@link #budgets} is not 0), known without reading the budgets. */
  private static final int BUDGETED = 1 << 11;
  private static final int DRAINED = 1 << 12;
  private static final int QUARANTINED = 1 << 13;
  /** Any of these set: some job holds the GPU. */
  private static final int HELD = UNITS_MASK | BUDGETED;
  /** Any of these set: the GPU itself is out of service. */
  private static final int OUT = DRAINED | QUARANTINED;

  final String id;
  final int cpusTotal;
  final GpuSpec[] gpus;
  /** GPU index of each slot, ascending, for binary search. */
  private final int[] indexes;
  /** Whether the indexes are 0..n-1, as on most workers: then a GPU's slot is its index, found without a read. */
  private final boolean dense;
  /**
   * Each GPU's units and flags, packed as the constants above describe; its length is the GPU count, so
   * that the walks of placement read no other array.
   */
  private final int[] state;
  /** Memory budgets placed on each GPU, summed, in MiB. */
  private final long[] budgets;
  final GpuSlot[] slots;
  final Map<String, Allocation> jobs = new LinkedHashMap<>();
  final VacancyIndex.Node<PoolWorker> gpuNode = new VacancyIndex.Node<>(this);
  final VacancyIndex.Node<PoolWorker> cpuNode = new VacancyIndex.Node<>(this);
  /** Which CPU index holds {@link #cpuNode}: true for the one of workers with a vacant GPU. */
  boolean cpuNodeWithGpu;
  boolean drained;
  int cpusUsed;
  /** GPUs with nothing held and in service: kept by {@link #recount()}. */
  int vacantGpus;

  PoolWorker(String id, int cpusTotal, GpuSpec[] sorted) {
    this.id = id;
    this.cpusTotal = cpusTotal;
    this.gpus = sorted;
    int n = sorted.length;
    this.indexes = new int[n];
    this.slots = new GpuSlot[n];
    boolean consecutive = true;
    for (int s = 0; s < n; s++) {
      indexes[s] = sorted[s].index();
      slots[s] = new GpuSlot(this, s);
      consecutive &= indexes[s] == s;
    }
    this.dense = consecutive;
    this.state = new int[n];
    this.budgets = new long[n];
    recount();
  }

  int gpuTotal() {
    return state.length;
  }

  int cpusVacant() {
    return cpusTotal - cpusUsed;
  }

  /** The slot of a GPU index, or a negative number when the worker does not lend it. */
  int slotOf(int gpuIndex) {
    if (dense) {
      return gpuIndex < state.length ? gpuIndex : -1;
    }
    return Arrays.binarySearch(indexes, gpuIndex);
  }

  /** The GPU index of a slot. */
  int gpuIndex(int s) {
    return dense ? s : indexes[s];
  }

  /** Units held on a GPU: the sum of the shares, or {@link #UNITS} when one job holds it whole. */
  int units(int s) {
    return state[s] & UNITS_MASK;
  }

  /** Memory budgets placed on a GPU, summed, in MiB. */
  long budgets(int s) {
    return budgets[s];
  }

  boolean wholeHeld(int s) {
    return (state[s] & WHOLE) != 0;
  }

  boolean gpuDrained(int s) {
    return (state[s] & DRAINED) != 0;
  }

  boolean quarantined(int s) {
    return (state[s] & QUARANTINED) != 0;
  }

  /** Drains a GPU or returns it to service; the caller recounts. */
  void setGpuDrained(int s, boolean on) {
    state[s] = on ? state[s] | DRAINED : state[s] & ~DRAINED;
  }

  /** Quarantines a GPU or lifts its quarantine; the caller recounts. */
  void setQuarantined(int s, boolean on) {
    state[s] = on ? state[s] | QUARANTINED : state[s] & ~QUARANTINED;
  }

  boolean inService(int s) {
    return !drained && (state[s] & OUT) == 0;
  }

  /** Nothing held on the GPU: no share, no budget. */
  boolean untouched(int s) {
    return (state[s] & HELD) == 0;
  }

  void recount() {
    int n = 0;
    for (int s = 0; s < state.length; s++) {
      if (untouched(s) && inService(s)) {
        n++;
      }
    }
    vacantGpus = n;
  }

  /** CPU vacancy as the indexes see it: a drained worker offers nothing. */
  int cpusOffered() {
    return drained ? 0 : cpusVacant();
  }

  /**
   * The key of a GPU in the share index, or -1 when it is not filed there: out of service, held whole,
   * full, or untouched. Twice the free units, so that a walk upwards from {@code 2 * share} meets the
   * partly used GPU with the fewest sufficient free units first. Untouched GPUs are found through the
   * pool's whole-GPU index instead: that keeps whole-GPU allocations, the common case, off this index.
   */
  int shareKey(int s) {
    if (!inService(s) || wholeHeld(s) || units(s) >= UNITS || untouched(s)) {
      return -1;
    }
    return 2 * (UNITS - units(s));
  }

  static int shareKeyFloor(int share) {
    return 2 * share;
  }

  /** MiB per step of the budget index: coarse enough for a small array, fine enough to scan little. */
  static final int MIB_PER_BUCKET = 256;
  private static final int MAX_BUCKET = 1 << 16;

  /**
   * The key of a GPU in the budget index (its free memory, in buckets), or -1 when it is not filed
   * there: out of service, held whole, untouched (found through the whole-GPU index), of unknown memory,
   * or full. A budget alone packs by memory,
   * the resource it asks for, on the GPU with the least free memory that suffices.
   */
  int budgetKey(int s) {
    if (!inService(s) || wholeHeld(s) || untouched(s) || gpus[s].memoryMb() == 0 || memoryFree(s) <= 0) {
      return -1;
    }
    return budgetBucket(memoryFree(s));
  }

  static int budgetBucket(long memoryMb) {
    return (int) Math.min(memoryMb / MIB_PER_BUCKET, MAX_BUCKET);
  }

  // ---- what a request could use -------------------------------------------------------------

  /** Whether this GPU has the model and the total memory a request needs (its load aside). */
  boolean capable(int s, ResourceRequest r) {
    if (r.gpuModel() == null && r.gpuMemoryMb() == 0) {
      return true; // the common case, without reading the GPU's description (a cache miss per GPU at scale)
    }
    return gpus[s].matches(r.gpuModel()) && (r.gpuMemoryMb() == 0 || gpus[s].memoryMb() >= r.gpuMemoryMb());
  }

  /** GPUs that could hold the request with everything vacant and in service. */
  int capableCount(ResourceRequest r) {
    int n = 0;
    for (int s = 0; s < state.length; s++) {
      if (capable(s, r)) {
        n++;
      }
    }
    return n;
  }

  boolean wholeFree(int s, ResourceRequest r) {
    return untouched(s) && inService(s) && capable(s, r);
  }

  /**
   * The untouched GPU (nothing held, in service) with the least memory that holds {@code r}'s share
   * or budget, lowest index first; -1 when there is none or the worker lacks {@code r}'s CPUs.
   */
  int pickUntouched(ResourceRequest r) {
    if (vacantGpus == 0 || cpusVacant() < r.cpus()) {
      return -1;
    }
    int best = -1;
    for (int s = 0; s < state.length; s++) {
      if (wholeFree(s, r) && (best < 0 || gpus[s].memoryMb() < gpus[best].memoryMb())) {
        best = s;
      }
    }
    return best;
  }

  /** The slots that would take {@code r}'s whole GPUs now (lowest indexes first), or null. */
  int[] pickWhole(ResourceRequest r) {
    if (cpusVacant() < r.cpus() || vacantGpus < r.gpus()) {
      return null;
    }
    int[] picked = new int[r.gpus()];
    int n = 0;
    for (int s = 0; s < state.length && n < picked.length; s++) {
      if (wholeFree(s, r)) {
        picked[n++] = s;
      }
    }
    return n == picked.length ? picked : null;
  }

  long memoryFree(int s) {
    return gpus[s].memoryMb() - budgets[s];
  }

  /** Whether the share or budget of {@code r} fits on this GPU now (CPUs aside). */
  boolean shareFits(int s, ResourceRequest r) {
    return inService(s) && !wholeHeld(s) && capable(s, r) && UNITS - units(s) >= r.gpuShare()
        && (r.gpuMemoryMb() == 0 || memoryFree(s) >= r.gpuMemoryMb());
  }

  // ---- holding and giving back --------------------------------------------------------------

  void hold(Allocation a) {
    load(a, 1);
    cpusUsed += a.cpus();
    jobs.put(a.jobId(), a);
    recount();
  }

  void giveBack(Allocation a) {
    jobs.remove(a.jobId());
    load(a, -1);
    cpusUsed -= a.cpus();
    recount();
  }

  /** Adds ({@code sign} 1) or takes away (-1) what an allocation holds on each of its GPUs. */
  private void load(Allocation a, int sign) {
    for (int g : a.gpus()) {
      int s = slotOf(g);
      int x = state[s] + sign * a.gpuShare();
      if (a.wholeGpus()) {
        x = sign > 0 ? x | WHOLE : x & ~WHOLE;
      }
      if (a.gpuMemoryMb() > 0) { // a whole-GPU allocation without a budget leaves the budgets unread
        budgets[s] += sign * a.gpuMemoryMb();
        x = budgets[s] == 0 ? x & ~BUDGETED : x | BUDGETED;
      }
      state[s] = x;
    }
  }

  /** The jobs holding GPU slot {@code s}. */
  List<Allocation> holders(int s) {
    List<Allocation> out = new ArrayList<>();
    int index = gpuIndex(s);
    for (Allocation a : jobs.values()) {
      if (a.gpus().contains(index)) {
        out.add(a);
      }
    }
    return out;
  }

  WorkerView view() {
    List<Integer> vacant = new ArrayList<>();
    List<Integer> used = new ArrayList<>();
    List<Integer> outOfService = new ArrayList<>();
    List<WorkerView.GpuLoad> loads = new ArrayList<>(state.length);
    for (int s = 0; s < state.length; s++) {
      int index = gpuIndex(s);
      if (!untouched(s)) {
        used.add(index);
      } else if (inService(s)) {
        vacant.add(index);
      } else {
        outOfService.add(index);
      }
      loads.add(new WorkerView.GpuLoad(index, units(s), budgets[s], gpus[s].memoryMb(), gpuDrained(s), quarantined(s)));
    }
    return new WorkerView(id, cpusTotal, cpusUsed, vacant, used, outOfService, loads, drained,
        new LinkedHashSet<>(jobs.keySet()));
  }

  @Override
  public String toString() {
    return id;
  }
}
