package org.parl.scheduler;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;
import org.parl.PlacementStrategy;
import org.parl.internal.resources.Allocation;
import org.parl.internal.resources.GroupRequest;
import org.parl.internal.resources.ResourceRequest;

/**
 * Throughput of the JobCenter's CPU/GPU pool as the cluster grows.
 *
 * <p>Every benchmark runs on a pool of {@code workers} workers with 8 GPUs (ids 0..7) and 32 CPUs
 * each, and only asks for GPUs. All randomness comes from fixed seeds and is drawn in
 * {@code @Setup}, and job ids are pre-built strings taken from a ring, so that an operation
 * measures the pool and not {@link Random} or string building. The pool's invariants are checked
 * once per trial in {@code @TearDown}, never inside a measured method.
 *
 * <ul>
 *   <li>{@link #allocateRelease1Gpu}: one op = allocate 1 GPU for a job + release that job, on a
 *       pool pre-filled to about half its GPUs with random 1-4 GPU jobs.
 *   <li>{@link #mixedStream}: one op = one step of a random stream of 1/2/4/8 GPU requests with a
 *       FIFO of live jobs, keeping GPU occupancy between 50% and 80%.
 *   <li>{@link #allocateReleaseMixed}: one op = allocate + release one request drawn from a mix of
 *       whole GPUs (1, 2), shares (0.25, 0.5, 0.6), memory budgets alone (4 and 8 GiB) and a share
 *       with a budget, on a pool of 40 GiB GPUs pre-filled to about half with the same mix.
 *   <li>{@link #schedulerSubmitDrain}: the same kind of stream through {@link Scheduler}: one op
 *       = either submit one request (granted at once or queued) or release the oldest live job
 *       and drain the queue, in the same 50-80% band; while requests wait, every op releases.
 *   <li>{@link #groupReserveRelease}: one op = place a STRICT_SPREAD group of four 1-GPU bundles
 *       (all or nothing) + release its four jobs, on a pool pre-filled like {@link #allocateRelease1Gpu}'s.
 * </ul>
 *
 * <p>Run with {@code bench/jmh.sh}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// A fixed heap keeps heap resizing out of the numbers. On 2 cores the JIT shares the CPU with the
// benchmark thread and throughput still climbs for 4-5 s, so warm-up is 8 s rather than 3.
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 8, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
public class PoolBenchmark {

  static final int GPUS_PER_WORKER = 8;
  static final int CPUS_PER_WORKER = 32;
  static final List<Integer> GPU_IDS = List.of(0, 1, 2, 3, 4, 5, 6, 7);
  static final ResourceRequest ONE_GPU = ResourceRequest.ofGpus(1);
  static final ResourceRequest[] BY_SIZE = {
    ResourceRequest.ofGpus(1), ResourceRequest.ofGpus(2),
    ResourceRequest.ofGpus(4), ResourceRequest.ofGpus(8)
  };
  static final List<GpuSpec> GPU_SPECS = java.util.stream.IntStream.range(0, GPUS_PER_WORKER)
      .mapToObj(i -> new GpuSpec(i, "GPU-bench-" + i, "NVIDIA A100-SXM4-40GB", 40_960)).toList();
  static final ResourceRequest[] MIXED = {
    ResourceRequest.ofGpus(1), ResourceRequest.ofGpus(2),
    new ResourceRequest(0, 0, 250, 0, null), new ResourceRequest(0, 0, 500, 0, null),
    new ResourceRequest(0, 0, 600, 0, null), new ResourceRequest(0, 0, 0, 4_096, null),
    new ResourceRequest(0, 0, 0, 8_192, null), new ResourceRequest(1, 0, 250, 8_192, "A100")
  };
  static final GroupRequest SPREAD_4 = new GroupRequest(List.of(ONE_GPU, ONE_GPU, ONE_GPU, ONE_GPU),
      PlacementStrategy.STRICT_SPREAD);
  /** Length of the pre-drawn request streams (a power of two). */
  static final int STREAM = 1 << 16;

  @Param({"10", "100", "1000", "10000"})
  public int workers;

  // ---- shared by all benchmarks -------------------------------------------------------------

  ResourcePool pool;
  int totalGpus;
  /** GPUs currently held by jobs, kept by the benchmark itself (cheaper than asking the pool). */
  int usedGpus;
  /** Pre-built job ids; ring.length is a power of two, far above the number of live jobs. */
  String[] ring;
  int ringMask;
  int nextId;

  // ---- mixedStream / schedulerSubmitDrain ---------------------------------------------------

  /** Pre-drawn request sizes (index into BY_SIZE) and coin flips. */
  int[] sizes;
  boolean[] coins;
  int cursor;
  /** Live jobs, oldest first. */
  ArrayDeque<Allocation> live;
  Scheduler<Object> scheduler;
  long gaveUp;
  boolean mixedTrial;

  @Setup(Level.Trial)
  public void setUp(BenchmarkParams params) {
    init(params.getBenchmark());
  }

  /** Builds the pool and the streams for the named benchmark (a method name, or a full name). */
  void init(String benchmark) {
    pool = new ResourcePool();
    boolean mixed = benchmark.endsWith("allocateReleaseMixed");
    mixedTrial = mixed;
    for (int i = 0; i < workers; i++) {
      if (mixed) {
        pool.addWorker("w" + i, CPUS_PER_WORKER, GPU_SPECS);
      } else {
        pool.addWorker("w" + i, CPUS_PER_WORKER, GPU_IDS);
      }
    }
    totalGpus = workers * GPUS_PER_WORKER;
    usedGpus = 0;
    // allocateRelease1Gpu and groupReserveRelease free each id at once, so a small ring will do. In mixedStream the live
    // jobs are the most recent successful allocations (at most totalGpus of them); the scheduler
    // also burns ids on failed attempts, so it gets a wide margin. Reusing an id that is still
    // live would make allocate() throw, so a ring that is too small fails loudly.
    boolean group = benchmark.endsWith("groupReserveRelease");
    int minRing = benchmark.endsWith("allocateRelease1Gpu") || mixed || group ? 1024
        : benchmark.endsWith("mixedStream") ? 2 * totalGpus : 16 * totalGpus;
    int ringSize = Integer.highestOneBit(Math.max(1024, minRing) - 1) << 1;
    ring = new String[ringSize];
    for (int i = 0; i < ringSize; i++) {
      ring[i] = "job-" + i;
    }
    ringMask = ringSize - 1;
    nextId = 0;
    live = new ArrayDeque<>();
    gaveUp = 0;

    Random rnd = new Random(0xC0FFEEL + workers);
    sizes = new int[STREAM];
    coins = new boolean[STREAM];
    for (int i = 0; i < STREAM; i++) {
      sizes[i] = rnd.nextInt(BY_SIZE.length);
      coins[i] = rnd.nextBoolean();
    }
    cursor = 0;

    if (benchmark.endsWith("allocateRelease1Gpu") || group) {
      prefillHalf(new Random(42L + workers));
    } else if (mixed) {
      for (int i = 0; i < STREAM; i++) {
        sizes[i] = rnd.nextInt(MIXED.length);
      }
      prefillMixed(new Random(43L + workers));
    } else if (benchmark.endsWith("mixedStream")) {
      // Fill to 50% and let the stream mix the pool for a while before measuring.
      for (int i = 0; usedGpus * 2 < totalGpus || i < 20 * workers; i++) {
        step();
      }
    } else if (benchmark.endsWith("schedulerSubmitDrain")) {
      scheduler = new Scheduler<>(pool, this::nextJobId);
      for (int i = 0; usedGpus * 2 < totalGpus || i < 20 * workers; i++) {
        schedulerStep(null);
      }
    }
  }

  /** Random 1-4 GPU jobs until about half of all GPUs are taken; these jobs stay for the trial. */
  private void prefillHalf(Random rnd) {
    int misses = 0;
    int n = 0;
    while (usedGpus * 2 < totalGpus && misses < 1000) {
      int g = 1 + rnd.nextInt(4);
      Optional<Allocation> a = pool.allocate("prefill-" + n++, ResourceRequest.ofGpus(g));
      if (a.isPresent()) {
        usedGpus += g;
      } else {
        misses++;
      }
    }
  }

  /** Requests from the mix until about half of all GPUs hold something; these jobs stay for the trial. */
  private void prefillMixed(Random rnd) {
    int touched = 0;
    int misses = 0;
    for (int n = 0; touched * 2 < totalGpus && misses < 1000; n++) {
      ResourceRequest r = MIXED[rnd.nextInt(MIXED.length)];
      Optional<Allocation> a = pool.allocate("prefill-" + n, r);
      if (a.isEmpty()) {
        misses++;
      } else if (r.gpus() > 0) {
        touched += r.gpus();
        usedGpus += r.gpus();
      } else {
        touched++; // roughly: a share or budget often lands on a GPU already touched
      }
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    pool.checkInvariants(); // throws IllegalStateException if the benchmark corrupted the pool
    int held = 0;
    for (WorkerView w : pool.workers()) {
      held += w.usedGpus().size();
    }
    // The mix's prefill counts only its whole GPUs in usedGpus; its shares and budgets are checked by the invariant.
    if (mixedTrial ? held < usedGpus : held != usedGpus) {
      throw new IllegalStateException("benchmark thinks " + usedGpus + " GPUs are used, pool says " + held);
    }
    if (scheduler != null && scheduler.waitingCount() > 0 && live.isEmpty()) {
      throw new IllegalStateException("scheduler stuck with " + scheduler.waitingCount() + " waiting");
    }
  }

  private String nextJobId() {
    return ring[nextId++ & ringMask];
  }

  // ---- benchmarks ---------------------------------------------------------------------------

  /** One op = allocate 1 GPU + release the same job. */
  @Benchmark
  public void allocateRelease1Gpu(Blackhole bh) {
    String job = ring[nextId++ & ringMask];
    Optional<Allocation> a = pool.allocate(job, ONE_GPU);
    if (a.isEmpty()) {
      throw new IllegalStateException("a half-full pool refused 1 GPU");
    }
    bh.consume(a);
    bh.consume(pool.release(job));
  }

  /** One op = place a 4-bundle STRICT_SPREAD group of 1-GPU bundles + release its 4 jobs. */
  @Benchmark
  public void groupReserveRelease(Blackhole bh) {
    Optional<List<Allocation>> g = pool.allocateGroup(this::nextJobId, SPREAD_4);
    if (g.isEmpty()) {
      throw new IllegalStateException("a half-full pool refused " + SPREAD_4);
    }
    List<Allocation> bundles = g.get();
    for (int i = 0; i < bundles.size(); i++) {
      bh.consume(pool.release(bundles.get(i).jobId()));
    }
  }

  /** One op = allocate one request of the whole/share/budget mix + release the same job. */
  @Benchmark
  public void allocateReleaseMixed(Blackhole bh) {
    String job = ring[nextId++ & ringMask];
    Optional<Allocation> a = pool.allocate(job, MIXED[sizes[cursor++ & (STREAM - 1)]]);
    if (a.isEmpty()) {
      throw new IllegalStateException("a half-full pool refused " + MIXED[sizes[(cursor - 1) & (STREAM - 1)]]);
    }
    bh.consume(a);
    bh.consume(pool.release(job));
  }

  /** One op = one step of the mixed 1/2/4/8 GPU stream (allocate, or release the oldest job). */
  @Benchmark
  public void mixedStream(Blackhole bh) {
    bh.consume(step());
  }

  /** One op = submit a 1/2/4/8 GPU request, then maybe release the oldest job and drain. */
  @Benchmark
  public void schedulerSubmitDrain(Blackhole bh) {
    schedulerStep(bh);
  }

  // ---- stream logic -------------------------------------------------------------------------

  /**
   * Below 50% occupancy: allocate; above 80%: release the oldest live job; in between: a coin
   * flip. An allocation that does not fit releases the oldest live job and tries once more, then
   * gives up. Returns the allocation made or released (or null).
   */
  Allocation step() {
    int i = cursor++ & (STREAM - 1);
    boolean allocate = usedGpus * 2 < totalGpus
        || (usedGpus * 5 <= totalGpus * 4 && coins[i]);
    if (!allocate) {
      return releaseOldest();
    }
    ResourceRequest r = BY_SIZE[sizes[i]];
    String job = ring[nextId & ringMask];
    Optional<Allocation> a = pool.allocate(job, r);
    if (a.isEmpty()) {
      releaseOldest();
      a = pool.allocate(job, r);
      if (a.isEmpty()) {
        gaveUp++;
        return null;
      }
    }
    nextId++;
    Allocation got = a.get();
    live.addLast(got);
    usedGpus += r.gpus();
    return got;
  }

  private Allocation releaseOldest() {
    Allocation oldest = live.pollFirst();
    if (oldest == null) {
      return null;
    }
    Optional<Allocation> r = pool.release(oldest.jobId());
    if (r.isEmpty()) {
      throw new IllegalStateException("live job " + oldest.jobId() + " was not held");
    }
    usedGpus -= oldest.gpus().size();
    return oldest;
  }

  /**
   * The same occupancy band as {@link #step()}, through the scheduler: either submit the next
   * request (granted at once, or queued), or, like the JobCenter when a job ends, release the
   * oldest live job and drain the queue. While requests are waiting, every step is a release.
   */
  void schedulerStep(Blackhole bh) {
    int i = cursor++ & (STREAM - 1);
    boolean submit = scheduler.waitingCount() == 0
        && (usedGpus * 2 < totalGpus || (usedGpus * 5 <= totalGpus * 4 && coins[i]));
    if (submit) {
      Scheduler.Submitted s = scheduler.submit(BY_SIZE[sizes[i]], null);
      if (s.allocation().isPresent()) {
        Allocation a = s.allocation().get();
        live.addLast(a);
        usedGpus += a.gpus().size();
      }
      if (bh != null) {
        bh.consume(s);
      }
      return;
    }
    Allocation released = releaseOldest();
    List<Scheduler.Grant<Object>> grants = scheduler.drain();
    for (int g = 0; g < grants.size(); g++) {
      Allocation a = grants.get(g).allocation();
      live.addLast(a);
      usedGpus += a.gpus().size();
    }
    if (bh != null) {
      bh.consume(released);
      bh.consume(grants);
    }
  }

}
