package org.parl.scheduler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.parl.internal.resources.Allocation;
import org.parl.internal.resources.ResourceRequest;

/**
 * Serves job requests from a {@link ResourcePool}: in arrival order, with backfill under reservations.
 *
 * <p><b>Queue rule.</b> {@link #drain()} walks the waiting requests in arrival order. A request that
 * fits now is granted, unless the only workers it fits on are reserved by earlier waiting requests. A
 * request that does not fit now reserves one worker: the one, in service and able to hold it, with the
 * most of what it needs already vacant (ties: the worker that joined first). Later requests, waiting or
 * newly {@linkplain #submit submitted}, are placed only on workers that no earlier request reserved. A
 * reservation is sticky: it moves only when its worker leaves or is drained, or when an earlier request
 * takes that worker; and a request whose reserved worker is still busy is granted at once on any other
 * worker that fits it. Requests that no worker of the pool could ever hold ({@link ResourcePool#canEverFit})
 * reserve nothing and block nobody; they wait for a bigger worker to join (or are
 * {@linkplain #dropNeverFitting dropped}).
 *
 * <p><b>Bound.</b> Once the earliest waiting request that can ever fit holds a reservation on worker
 * {@code w}, nothing else is placed on {@code w}; so, as long as {@code w} stays in service, that request
 * is placed at the latest at the first drain after the jobs that held resources on {@code w} when the
 * reservation was made have ended (earlier if another worker fits it first). If {@code w} leaves or is
 * drained, the request reserves another worker at the next drain.
 *
 * <p>The caller calls {@link #drain()} after every change that frees resources (a job released, a worker
 * joined or returned to service); {@code submit} assumes the queue has been drained since. Timeouts belong
 * to the caller, which {@linkplain #cancel cancels} a request whose time is up. Single-threaded, like the pool.
 *
 * @param <T> what the caller attaches to a request (a promise, say) and gets back with its grant
 */
public final class Scheduler<T> {

  /** A request that was granted after waiting. */
  public record Grant<T>(long requestId, T ticket, Allocation allocation) {}

  /** A request still waiting, as shown by metrics and the monitor. */
  public record Waiting<T>(long requestId, ResourceRequest request, T ticket, long sinceNanos) {}

  /** The outcome of a submission: granted now, or queued under {@code requestId}. */
  public record Submitted(long requestId, Optional<Allocation> allocation) {}

  /** What a waiting request waits for, as metrics count it. */
  public enum ReasonClass {
    /** It fits now, but only on workers reserved for earlier requests. */
    QUEUED,
    /** The resources it needs are held by running jobs. */
    BUSY,
    /** No GPU of the model asked is in the pool. */
    MODEL,
    /** GPU memory: no GPU of the pool is large enough, or the budgets placed leave too little on every GPU. */
    MEMORY,
    /** The workers or GPUs that could hold it are drained or quarantined. */
    OUT_OF_SERVICE,
    /** No worker of the pool could ever hold it: none is large enough, or none lends CPUs or GPUs. */
    NO_WORKER
  }

  /**
   * Why a request is still waiting.
   *
   * @param ahead earlier requests still waiting
   * @param kind the class of the reason
   * @param summary one sentence
   * @param details per worker or group of alike workers, the constraint that stops it (at most 8 lines)
   */
  public record Reason(int ahead, ReasonClass kind, String summary, List<String> details) {

    public Reason {
      details = List.copyOf(details);
    }
  }

  /** Lines of detail in a {@link Reason}. */
  public static final int DETAIL_LINES = 8;

  /** A waiting request and its reservation. */
  private static final class Entry<T> {
    final Waiting<T> waiting;
    /** The worker reserved for it, or null. */
    String reserved;
    long feasibleAt = -1;
    boolean feasible;
    /** The class of its reason while the pool is at version {@link #classAt} ({@link ResourcePool#version}). */
    ReasonClass reasonClass;
    long classAt = -1;

    Entry(Waiting<T> waiting) {
      this.waiting = waiting;
    }

    ResourceRequest request() {
      return waiting.request();
    }
  }

  private final ResourcePool pool;
  private final Supplier<String> jobIds;
  private final LinkedHashMap<Long, Entry<T>> waiting = new LinkedHashMap<>();
  /** Worker id to the request that reserved it. */
  private final Map<String, Entry<T>> reservations = new HashMap<>();
  private long nextRequestId = 1;

  public Scheduler(ResourcePool pool, Supplier<String> jobIds) {
    this.pool = pool;
    this.jobIds = jobIds;
  }

  public ResourcePool pool() {
    return pool;
  }

  /**
   * Grants the request now if it fits on a worker that no waiting request reserved; else queues it,
   * reserving a worker for it if it can ever fit.
   */
  public Submitted submit(ResourceRequest request, T ticket) {
    long id = nextRequestId++;
    ResourcePool.Placement p = pool.find(request, reservations.isEmpty() ? null : reservations::containsKey);
    if (p != null) {
      return new Submitted(id, Optional.of(pool.take(jobIds.get(), request, p)));
    }
    Entry<T> e = new Entry<>(new Waiting<>(id, request, ticket, System.nanoTime()));
    waiting.put(id, e);
    if (feasible(e)) {
      String w = pool.reservationFor(request, reservations::containsKey);
      if (w != null) {
        reserve(e, w);
      }
    }
    return new Submitted(id, Optional.empty());
  }

  /**
   * Serves waiting requests by the queue rule of this class and renews reservations.
   *
   * <p>Cheap with a long queue: it returns at once when nothing is vacant, stops when every worker is
   * reserved, and tries each distinct request that failed once in this walk no more (what failed stays
   * failed: vacancies only shrink and reservations only grow during a walk).
   */
  public List<Grant<T>> drain() {
    List<Grant<T>> grants = new ArrayList<>();
    if (waiting.isEmpty() || !pool.anythingVacant()) {
      return grants;
    }
    Set<String> blocked = new HashSet<>();
    Set<ResourceRequest> fitsNowhere = new HashSet<>();
    Set<ResourceRequest> reservesNothing = new HashSet<>();
    int workers = pool.workerCount();
    for (Iterator<Entry<T>> it = waiting.values().iterator(); it.hasNext(); ) {
      Entry<T> e = it.next();
      ResourceRequest r = e.request();
      if (!feasible(e)) {
        unreserve(e);
        continue;
      }
      if (!fitsNowhere.contains(r)) {
        ResourcePool.Placement p = pool.find(r, blocked.isEmpty() ? null : blocked::contains);
        if (p != null) {
          unreserve(e);
          it.remove();
          grants.add(new Grant<>(e.waiting.requestId(), e.waiting.ticket(), pool.take(jobIds.get(), r, p)));
          continue;
        }
        fitsNowhere.add(r);
      }
      if (e.reserved != null && (blocked.contains(e.reserved) || !pool.inService(e.reserved))) {
        unreserve(e);
      }
      if (e.reserved == null && !reservesNothing.contains(r)) {
        String w = pool.reservationFor(r, blocked::contains);
        if (w == null) {
          reservesNothing.add(r);
        } else {
          reserve(e, w);
        }
      }
      if (e.reserved != null) {
        blocked.add(e.reserved);
        if (blocked.size() >= workers) {
          break;
        }
      }
    }
    return grants;
  }

  /** Removes a waiting request, for instance when its timeout fires; empty if already served. */
  public Optional<T> cancel(long requestId) {
    Entry<T> e = waiting.remove(requestId);
    if (e == null) {
      return Optional.empty();
    }
    unreserve(e);
    return Optional.of(e.waiting.ticket());
  }

  /** Removes every waiting request whose ticket matches, in order; returns their tickets. */
  public List<T> cancelIf(Predicate<T> match) {
    List<T> cancelled = new ArrayList<>();
    for (Iterator<Entry<T>> it = waiting.values().iterator(); it.hasNext(); ) {
      Entry<T> e = it.next();
      if (match.test(e.waiting.ticket())) {
        it.remove();
        unreserve(e);
        cancelled.add(e.waiting.ticket());
      }
    }
    return cancelled;
  }

  /**
   * Removes the waiting requests that no worker of the pool could ever hold any more, except those whose
   * ticket satisfies {@code keepWaiting} (the client chose to wait for workers that may join).
   *
   * @return the removed requests, in arrival order; {@link ResourcePool#neverFits} says why for each
   */
  public List<Waiting<T>> dropNeverFitting(Predicate<T> keepWaiting) {
    List<Waiting<T>> dropped = new ArrayList<>();
    for (Iterator<Entry<T>> it = waiting.values().iterator(); it.hasNext(); ) {
      Entry<T> e = it.next();
      if (!feasible(e) && !keepWaiting.test(e.waiting.ticket())) {
        it.remove();
        unreserve(e);
        dropped.add(e.waiting);
      }
    }
    return dropped;
  }

  /**
   * Why a request is still waiting: its place in the queue, the class of the reason, one sentence, and
   * per group of alike workers the constraint that stops it. One pass over the queue and the workers.
   *
   * @return empty when the request is not waiting (granted, cancelled or unknown)
   */
  public Optional<Reason> reason(long requestId) {
    Entry<T> e = waiting.get(requestId);
    if (e == null) {
      return Optional.empty();
    }
    int ahead = 0;
    for (Long id : waiting.keySet()) {
      if (id == requestId) {
        break;
      }
      ahead++;
    }
    ResourceRequest r = e.request();
    Explanation x = pool.explanation(r, DETAIL_LINES);
    Optional<PoolShapes.Verdict> never = pool.verdict(r);
    ReasonClass kind = classOf(r, never, () -> x);
    String summary = never.isPresent() ? never.get().sentence()
        : kind == ReasonClass.QUEUED ? "it fits now only on workers reserved for earlier requests ("
            + Texts.count(ahead, "request") + " waiting ahead of it)"
        : "no worker can hold " + r + " now (" + x.lines().get(0) + ")";
    return Optional.of(new Reason(ahead, kind, summary, x.lines()));
  }

  /**
   * The classes of the reasons of the first {@code max} waiting requests, in arrival order: what
   * {@link #reason} says of each, for metrics, without the sentences. A class is kept on its request
   * while the pool stays the same, and worked out once per distinct request after it changed, so that
   * asking again costs one pass over these requests.
   */
  public List<ReasonClass> reasonClasses(int max) {
    long version = pool.version();
    Map<ResourceRequest, ReasonClass> worked = new HashMap<>();
    List<ReasonClass> out = new ArrayList<>(Math.min(max, waiting.size()));
    for (Entry<T> e : waiting.values()) {
      if (out.size() >= max) {
        break;
      }
      if (e.classAt != version) {
        e.reasonClass = worked.computeIfAbsent(e.request(), r -> classOf(r, pool.verdict(r), () -> pool.explanation(r, 1)));
        e.classAt = version;
      }
      out.add(e.reasonClass);
    }
    return out;
  }

  /**
   * The class of what {@code r} waits for in the pool as it is now, given whether it could ever fit; the
   * explanation of the workers, the costly part, is asked only when it decides.
   */
  private ReasonClass classOf(ResourceRequest r, Optional<PoolShapes.Verdict> never, Supplier<Explanation> explanation) {
    if (never.isPresent()) {
      return switch (never.get().kind()) {
        case MODEL -> ReasonClass.MODEL;
        case MEMORY -> ReasonClass.MEMORY;
        default -> ReasonClass.NO_WORKER;
      };
    }
    if (pool.find(r, null) != null) {
      return ReasonClass.QUEUED;
    }
    return switch (explanation.get().nearest()) {
      case MEMORY -> ReasonClass.MEMORY;
      case OUT_OF_SERVICE -> ReasonClass.OUT_OF_SERVICE;
      default -> ReasonClass.BUSY;
    };
  }

  public List<Waiting<T>> waiting() {
    List<Waiting<T>> list = new ArrayList<>(waiting.size());
    for (Entry<T> e : waiting.values()) {
      list.add(e.waiting);
    }
    return List.copyOf(list);
  }

  public int waitingCount() {
    return waiting.size();
  }

  /** The worker reserved for a waiting request, if any (tests and status). */
  public Optional<String> reservedWorker(long requestId) {
    Entry<T> e = waiting.get(requestId);
    return e == null ? Optional.empty() : Optional.ofNullable(e.reserved);
  }

  /** Feasibility, recomputed only when workers joined or left since it was last known. */
  private boolean feasible(Entry<T> e) {
    long version = pool.shapeVersion();
    if (e.feasibleAt != version) {
      e.feasible = pool.canEverFit(e.request());
      e.feasibleAt = version;
    }
    return e.feasible;
  }

  /** Reserves {@code workerId} for {@code e}, taking it from a later request that held it. */
  private void reserve(Entry<T> e, String workerId) {
    Entry<T> previous = reservations.put(workerId, e);
    if (previous != null && previous != e) {
      previous.reserved = null;
    }
    e.reserved = workerId;
  }

  private void unreserve(Entry<T> e) {
    if (e.reserved != null) {
      reservations.remove(e.reserved, e);
      e.reserved = null;
    }
  }
}
