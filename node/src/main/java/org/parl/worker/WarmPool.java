package org.parl.worker;

import io.vertx.core.Vertx;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.stream.Stream;
import org.parl.internal.wire.JobControl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's warm processes, started ahead of demand so that an actor lands without a JVM start: how
 * many it keeps ({@code warmJobs} generic ones on a CPU worker, one per GPU no job holds on a GPU worker),
 * which one an actor takes, which jobs fit it (no memory limit, at most one GPU: those are also the ones
 * taken back after their actor's close), when it is topped up and which surplus process goes. It reads
 * the {@link JobTable} and starts processes through its supervisor; used on the worker verticle's context.
 */
final class WarmPool {

  /** How long a refill after a create waits while other warm processes are ready. */
  static final long REFILL_DELAY_MS = 300;
  /** How long a failed warm start waits before the next try. */
  private static final long RETRY_MS = 5_000;
  private static final Logger log = LoggerFactory.getLogger(WarmPool.class);

  private final Vertx vertx;
  private final WorkerSettings settings;
  private final JobTable table;
  private final Function<List<Integer>, JobProcess> start;
  private final BooleanSupplier stopping;
  /**
   * Counts the times the pool was found full. A refill delayed after a create starts a JVM only if the
   * pool was not full since: under create+close churn the process taken comes back (job reuse) before
   * the delay is over, and a JVM started meanwhile would only be stopped again as a spare.
   */
  private long foundFull;
  /** Whether a warm process is starting: one at a time, so that a small host is not swamped. */
  private boolean warming;

  /**
   * @param start starts a warm process for these GPUs
   * @param stopping whether the worker is stopping, when the pool is neither topped up nor trimmed
   */
  WarmPool(Vertx vertx, WorkerSettings settings, JobTable table, Function<List<Integer>, JobProcess> start,
      BooleanSupplier stopping) {
    this.vertx = vertx;
    this.settings = settings;
    this.table = table;
    this.start = start;
    this.stopping = stopping;
  }

  /** Whether a job with this memory limit and these GPUs can take a warm process, and be taken back into the pool. */
  static boolean fits(int memoryLimitMb, List<Integer> gpus) {
    return memoryLimitMb == 0 && gpus.size() <= 1;
  }

  /** Whether the pool takes this process back once its actor was closed. */
  boolean takesBack(JobProcess p) {
    return enabled() && fits(p.memoryLimitMb(), p.gpus());
  }

  private boolean enabled() {
    return settings.warmJobs() > 0;
  }

  /** The warm processes the pool keeps for one set of GPUs: {@code warmJobs} on a CPU worker, one per GPU. */
  private int size() {
    return settings.gpus().isEmpty() ? settings.warmJobs() : 1;
  }

  private static boolean pooled(JobProcess p) {
    return p.warm() && p.memoryLimitMb() == 0;
  }

  /** A warm process for these GPUs that can take an actor without a JVM start, best first ({@link #best}). */
  Optional<JobProcess> take(List<Integer> gpus) {
    return best(table.live(), gpus);
  }

  /**
   * Of these processes, the warm one for these GPUs that can take an actor without a JVM start, best
   * first: ready before starting, then the one that served the most actors (the JIT compiled its create
   * and call paths; a process never used creates its first actor several times slower). One that is
   * recycling is left out: its checks may still find it dirty.
   */
  static Optional<JobProcess> best(Stream<JobProcess> live, List<Integer> gpus) {
    return live
        .filter(p -> pooled(p) && p.gpus().equals(gpus) && p.state() != JobProcess.State.ENDED
            && p.state() != JobProcess.State.RECYCLING)
        .min(Comparator.comparing((JobProcess p) -> p.state() == JobProcess.State.IDLE ? 0 : 1)
            .thenComparing(p -> -p.actorsServed()));
  }

  /**
   * An actor took a process for these GPUs. While other warm processes are ready, the replacement
   * starts a moment later: a JVM start takes both cores of a small host, and the client is still
   * setting its new actor up.
   */
  void taken(List<Integer> gpus) {
    if (take(gpus).isPresent()) {
      long fullBefore = foundFull;
      vertx.setTimer(REFILL_DELAY_MS, t -> {
        if (foundFull == fullBefore) {
          topUp();
        }
      });
    } else {
      topUp();
    }
  }

  /** Starts the next warm process the pool lacks, if any, one start at a time. */
  void topUp() {
    if (warming || !enabled() || stopping.getAsBoolean()) {
      return;
    }
    List<Integer> next = next();
    if (next == null) {
      foundFull++;
      return;
    }
    warming = true;
    start.apply(next).whenReady().onComplete(ar -> {
      warming = false;
      if (stopping.getAsBoolean()) {
        return;
      }
      if (ar.failed()) {
        log.warn("a warm job process failed to start: {}", ar.cause().getMessage());
        vertx.setTimer(RETRY_MS, t -> topUp());
      } else {
        topUp();
      }
    });
  }

  /** The GPUs of the next warm process the pool lacks, or null when it is full. */
  private List<Integer> next() {
    if (settings.gpus().isEmpty()) {
      long warm = table.live().filter(WarmPool::pooled).count();
      return warm < size() ? List.of() : null;
    }
    Set<Integer> held = new HashSet<>();
    table.live().filter(p -> !p.warm()).forEach(p -> held.addAll(p.gpus()));
    for (int gpu : settings.gpus()) {
      List<Integer> one = List.of(gpu);
      if (!held.contains(gpu) && table.live().filter(p -> pooled(p) && p.gpus().equals(one)).count() < size()) {
        return one;
      }
    }
    return null;
  }

  /**
   * A warm process became ready. When that makes the pool bigger than it keeps (processes taken back
   * after a close can overfill it), one process goes: a new one that never served an actor if there is
   * one, since a process taken back is as good and already warm, else this one. It leaves the table
   * first, so that no actor lands on it on its way out.
   */
  void trim(JobProcess ready) {
    if (stopping.getAsBoolean() || !ready.warm()) {
      return;
    }
    List<JobProcess> like = table.live()
        .filter(q -> pooled(q) && q.gpus().equals(ready.gpus()) && q.state() != JobProcess.State.STARTING)
        .toList();
    if (like.size() <= size()) {
      return;
    }
    JobProcess spare = like.stream().filter(q -> !q.reused() && q.state() == JobProcess.State.IDLE).findFirst().orElse(ready);
    if (spare.state() != JobProcess.State.IDLE) {
      return;
    }
    log.info("warm job process {} (pid {}) is not needed: the warm pool is full", spare.slot(), spare.pid());
    table.ended(spare);
    ControlServer.send(spare, new JobControl.Stop());
  }
}
