package org.parl.scheduler;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The CPU/GPU pool of a cluster: which worker lends what, and which job holds what.
 *
 * <p>Plain Java with a single writer: the JobCenter calls it from one event loop, so it uses no
 * locks. Placement is best fit (the worker whose vacancy fits the request most tightly), found
 * through a {@link VacancyIndex} so that the cost of a request does not grow with the number of
 * workers. {@link #checkInvariants()} verifies the accounting exactly; tests call it after every
 * step.
 */
public final class ResourcePool {

  private final Map<String, WorkerState> workers = new LinkedHashMap<>();
  private final Map<String, Allocation> allocations = new HashMap<>();
  private final VacancyIndex<WorkerState> gpuIndex = new VacancyIndex<>();
  private final VacancyIndex<WorkerState> cpuIndex = new VacancyIndex<>();
  private final TreeMap<Integer, Integer> gpuTotals = new TreeMap<>();
  private final TreeMap<Integer, Integer> cpuTotals = new TreeMap<>();

  /**
   * Adds a worker that lends {@code cpus} CPUs and the GPUs with the given ids.
   *
   * @throws IllegalArgumentException if the id is taken, an amount is negative or a GPU id repeats
   */
  public void addWorker(String workerId, int cpus, Collection<Integer> gpuIds) {
    if (workerId == null || workerId.isBlank()) {
      throw new IllegalArgumentException("a worker needs an id");
    }
    if (workers.containsKey(workerId)) {
      throw new IllegalArgumentException("worker " + workerId + " is already in the pool");
    }
    if (cpus < 0) {
      throw new IllegalArgumentException("worker " + workerId + " offers a negative CPU count: " + cpus);
    }
    BitSet gpus = new BitSet();
    for (Integer id : gpuIds) {
      if (id == null || id < 0) {
        throw new IllegalArgumentException("worker " + workerId + " offers an invalid GPU id: " + id);
      }
      if (gpus.get(id)) {
        throw new IllegalArgumentException("worker " + workerId + " offers GPU " + id + " twice");
      }
      gpus.set(id);
    }
    if (cpus == 0 && gpus.isEmpty()) {
      throw new IllegalArgumentException("worker " + workerId + " offers neither CPUs nor GPUs");
    }
    WorkerState w = new WorkerState(workerId, cpus, gpus);
    workers.put(workerId, w);
    if (w.gpuTotal > 0) {
      gpuIndex.add(w.gpuNode, w.gpuTotal);
      increment(gpuTotals, w.gpuTotal);
    }
    if (w.cpusTotal > 0) {
      cpuIndex.add(w.cpuNode, w.cpusTotal);
      increment(cpuTotals, w.cpusTotal);
    }
  }

  /**
   * Removes a worker and everything it lent.
   *
   * @return the allocations that were held on it (now lost), empty if the worker was unknown
   */
  public List<Allocation> removeWorker(String workerId) {
    WorkerState w = workers.remove(workerId);
    if (w == null) {
      return List.of();
    }
    if (w.gpuTotal > 0) {
      gpuIndex.remove(w.gpuNode);
      decrement(gpuTotals, w.gpuTotal);
    }
    if (w.cpusTotal > 0) {
      cpuIndex.remove(w.cpuNode);
      decrement(cpuTotals, w.cpusTotal);
    }
    List<Allocation> lost = new ArrayList<>(w.jobs.values());
    for (Allocation a : lost) {
      allocations.remove(a.jobId());
    }
    return lost;
  }

  /**
   * Takes resources for a job from the best-fitting worker.
   *
   * @return the allocation, or empty when no worker has enough vacant resources right now
   * @throws IllegalArgumentException if the job already holds resources
   */
  public Optional<Allocation> allocate(String jobId, ResourceRequest request) {
    if (allocations.containsKey(jobId)) {
      throw new IllegalArgumentException("job " + jobId + " already holds resources");
    }
    WorkerState w = request.gpus() > 0
        ? gpuIndex.first(request.gpus(), s -> s.fits(request))
        : cpuIndex.first(request.cpus(), s -> s.fits(request));
    if (w == null) {
      return Optional.empty();
    }
    Allocation a = w.take(jobId, request);
    allocations.put(jobId, a);
    return Optional.of(a);
  }

  /**
   * Records a job that already holds exactly these resources (a new active master adopting what a
   * worker reports it runs, SPEC §10).
   *
   * @throws IllegalArgumentException naming the conflict if the job id is taken, the worker is
   *     unknown, or the resources are not all vacant on it
   */
  public void adopt(Allocation a) {
    if (allocations.containsKey(a.jobId())) {
      throw new IllegalArgumentException("job " + a.jobId() + " already holds resources");
    }
    WorkerState w = workers.get(a.workerId());
    if (w == null) {
      throw new IllegalArgumentException("worker " + a.workerId() + " of job " + a.jobId() + " is not in the pool");
    }
    if (a.cpus() < 0 || a.cpus() > w.cpusVacant()) {
      throw new IllegalArgumentException("job " + a.jobId() + " holds " + a.cpus() + " CPU(s) but " + w.id + " has "
          + w.cpusVacant() + " vacant");
    }
    for (int g : a.gpus()) {
      if (g < 0 || !w.allGpus.get(g)) {
        throw new IllegalArgumentException("job " + a.jobId() + " holds GPU " + g + ", which " + w.id + " does not lend");
      }
      if (!w.vacantGpus.get(g)) {
        throw new IllegalArgumentException("job " + a.jobId() + " holds GPU " + g + " of " + w.id + ", which another job holds");
      }
    }
    w.hold(a);
    allocations.put(a.jobId(), a);
  }

  /**
   * Returns a job's resources to its worker.
   *
   * @return the released allocation, or empty if the job holds nothing (unknown, released twice,
   *     or lost with its worker)
   */
  public Optional<Allocation> release(String jobId) {
    Allocation a = allocations.remove(jobId);
    if (a == null) {
      return Optional.empty();
    }
    workers.get(a.workerId()).giveBack(a);
    return Optional.of(a);
  }

  /** True when some worker's whole capacity could serve the request once its jobs end. */
  public boolean canEverFit(ResourceRequest r) {
    boolean gpusOk = r.gpus() == 0 || (!gpuTotals.isEmpty() && gpuTotals.lastKey() >= r.gpus());
    boolean cpusOk = r.cpus() == 0 || (!cpuTotals.isEmpty() && cpuTotals.lastKey() >= r.cpus());
    return gpusOk && cpusOk;
  }

  public int workerCount() {
    return workers.size();
  }

  public int allocationCount() {
    return allocations.size();
  }

  /** Snapshot of one worker, or empty if unknown. */
  public Optional<WorkerView> worker(String workerId) {
    WorkerState w = workers.get(workerId);
    return w == null ? Optional.empty() : Optional.of(w.view());
  }

  /** Snapshots of all workers in the order they joined. */
  public List<WorkerView> workers() {
    List<WorkerView> views = new ArrayList<>(workers.size());
    for (WorkerState w : workers.values()) {
      views.add(w.view());
    }
    return views;
  }

  /**
   * Verifies the accounting: every GPU id of a live worker is either vacant or used by exactly
   * one job, CPU counts stay within [0, total], every allocation belongs to a live worker, and the
   * vacancy indexes agree with the workers.
   *
   * @throws IllegalStateException describing the first violation found
   */
  public void checkInvariants() {
    int gpuIndexed = 0;
    int cpuIndexed = 0;
    int jobs = 0;
    int gpuListed;
    int cpuListed;
    try {
      gpuListed = gpuIndex.verify();
      cpuListed = cpuIndex.verify();
    } catch (IllegalStateException e) {
      throw new IllegalStateException("pool invariant broken: " + e.getMessage(), e);
    }
    for (WorkerState w : workers.values()) {
      BitSet used = new BitSet();
      int cpus = 0;
      for (Allocation a : w.jobs.values()) {
        jobs++;
        if (allocations.get(a.jobId()) != a) {
          fail("job " + a.jobId() + " on " + w.id + " is not in the allocation table");
        }
        cpus += a.cpus();
        for (int g : a.gpus()) {
          if (!w.allGpus.get(g)) {
            fail("job " + a.jobId() + " holds GPU " + g + " that " + w.id + " does not have");
          }
          if (used.get(g)) {
            fail("GPU " + g + " of " + w.id + " is held by two jobs");
          }
          used.set(g);
        }
      }
      if (used.intersects(w.vacantGpus)) {
        BitSet both = (BitSet) used.clone();
        both.and(w.vacantGpus);
        fail("GPU(s) " + both + " of " + w.id + " are both vacant and used");
      }
      BitSet union = (BitSet) used.clone();
      union.or(w.vacantGpus);
      if (!union.equals(w.allGpus)) {
        fail("GPUs of " + w.id + " are " + w.allGpus + " but vacant+used is " + union);
      }
      if (cpus != w.cpusUsed || w.cpusUsed < 0 || w.cpusUsed > w.cpusTotal) {
        fail("CPU count of " + w.id + " is " + w.cpusUsed + "/" + w.cpusTotal + ", jobs hold " + cpus);
      }
      if (w.gpuTotal > 0) {
        gpuIndexed++;
        if (!gpuIndex.contains(w.gpuNode, w.vacantGpus.cardinality())) {
          fail(w.id + " is not indexed at its GPU vacancy " + w.vacantGpus.cardinality());
        }
      }
      if (w.cpusTotal > 0) {
        cpuIndexed++;
        if (!cpuIndex.contains(w.cpuNode, w.cpusVacant())) {
          fail(w.id + " is not indexed at its CPU vacancy " + w.cpusVacant());
        }
      }
    }
    if (jobs != allocations.size()) {
      fail(allocations.size() + " allocations recorded but workers hold " + jobs);
    }
    if (gpuListed != gpuIndexed || cpuListed != cpuIndexed) {
      fail("vacancy indexes hold stale workers");
    }
  }

  private static void fail(String message) {
    throw new IllegalStateException("pool invariant broken: " + message);
  }

  private static void increment(TreeMap<Integer, Integer> counts, int key) {
    counts.merge(key, 1, Integer::sum);
  }

  private static void decrement(TreeMap<Integer, Integer> counts, int key) {
    counts.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1);
  }

  /** Mutable state of one worker; touched only through the pool. */
  private final class WorkerState {
    final String id;
    final int cpusTotal;
    final int gpuTotal;
    final BitSet allGpus;
    final BitSet vacantGpus;
    final Map<String, Allocation> jobs = new LinkedHashMap<>();
    final VacancyIndex.Node<WorkerState> gpuNode = new VacancyIndex.Node<>(this);
    final VacancyIndex.Node<WorkerState> cpuNode = new VacancyIndex.Node<>(this);
    int cpusUsed;

    WorkerState(String id, int cpusTotal, BitSet gpus) {
      this.id = id;
      this.cpusTotal = cpusTotal;
      this.allGpus = gpus;
      this.vacantGpus = (BitSet) gpus.clone();
      this.gpuTotal = gpus.cardinality();
    }

    int cpusVacant() {
      return cpusTotal - cpusUsed;
    }

    boolean fits(ResourceRequest r) {
      return cpusVacant() >= r.cpus() && vacantGpus.cardinality() >= r.gpus();
    }

    Allocation take(String jobId, ResourceRequest r) {
      List<Integer> ids = new ArrayList<>(r.gpus());
      for (int g = vacantGpus.nextSetBit(0); ids.size() < r.gpus(); g = vacantGpus.nextSetBit(g + 1)) {
        ids.add(g);
      }
      Allocation a = new Allocation(jobId, id, r.cpus(), ids);
      hold(a);
      return a;
    }

    void hold(Allocation a) {
      for (int g : a.gpus()) {
        vacantGpus.clear(g);
      }
      cpusUsed += a.cpus();
      jobs.put(a.jobId(), a);
      reindex();
    }

    void giveBack(Allocation a) {
      jobs.remove(a.jobId());
      for (int g : a.gpus()) {
        vacantGpus.set(g);
      }
      cpusUsed -= a.cpus();
      reindex();
    }

    private void reindex() {
      if (gpuTotal > 0) {
        gpuIndex.move(gpuNode, vacantGpus.cardinality());
      }
      if (cpusTotal > 0) {
        cpuIndex.move(cpuNode, cpusVacant());
      }
    }

    WorkerView view() {
      BitSet used = (BitSet) allGpus.clone();
      used.andNot(vacantGpus);
      return new WorkerView(id, cpusTotal, cpusUsed, ids(vacantGpus), ids(used),
          new LinkedHashSet<>(jobs.keySet()));
    }

    @Override
    public String toString() {
      return id;
    }
  }

  private static List<Integer> ids(BitSet set) {
    return set.stream().boxed().toList();
  }
}
