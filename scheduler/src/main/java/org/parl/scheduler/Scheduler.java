package org.parl.scheduler;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.parl.internal.resources.Allocation;
import org.parl.internal.resources.GroupRequest;
import org.parl.internal.resources.ResourceRequest;

/**
 * Serves job requests and placement groups from a {@link ResourcePool}: by priority, then in arrival
 * order, with backfill under reservations.
 *
 * <p><b>Queue rule.</b> One queue holds single requests and groups, ordered by priority (higher first)
 * and, within a priority, by arrival. {@link #drain()} walks it in that order. An entry that fits now is
 * granted (a group with every bundle at once, or not at all), unless the only workers it fits on are
 * reserved by entries ahead of it. An entry that does not fit now reserves workers: a request the one,
 * in service and able to hold it, with the most of what it needs already vacant (ties: the worker that
 * joined first); a group one worker per bundle, picked alike and distinct where enough workers are
 * open (STRICT_PACK, PACK, or too few: the workers its placement on the pool emptied would use), so that
 * the group fits on its reserved workers once they are empty. Entries behind, waiting or newly
 * {@linkplain #submit submitted}, are placed only on workers that no entry ahead of them reserved; a
 * newcomer is behind every waiting entry of its priority or higher, and ahead of those of lower
 * priority, whose reserved workers it may thus use or, when it waits, take. A reservation is sticky: it
 * moves only when one of its workers leaves or is drained, or when an entry ahead takes one of them (a
 * group then gives up all its workers and reserves anew); and an entry whose reserved workers are still
 * busy is granted at once on any other workers that fit it. Entries that the pool could never hold
 * ({@link ResourcePool#canEverFit}, {@link ResourcePool#canEverFitGroup}) reserve nothing and block
 * nobody; they wait for a bigger worker to join (or are {@linkplain #dropNeverFitting dropped}).
 *
 * <p><b>Bound.</b> Once the first waiting entry that can ever fit holds a reservation on workers
 * {@code W}, nothing else is placed on {@code W} until a higher-priority entry arrives and takes one of
 * them; so, as long as {@code W} stays in service and no such entry arrives, that entry is placed at
 * the latest at the first drain after the jobs that held resources on {@code W} when the reservation
 * was made have ended (earlier if other workers fit it first). If a worker of {@code W} leaves or is
 * drained, the entry reserves again at the next drain. Neither singles nor groups can starve the other:
 * the first entry's reservation holds against both.
 *
 * <p>The caller calls {@link #drain()} after every change that frees resources (a job released, a worker
 * joined or returned to service); {@code submit} assumes the queue has been drained since. Timeouts belong
 * to the caller, which {@linkplain #cancel cancels} an entry whose time is up. Priorities are any int; the
 * caller bounds them. Single-threaded, like the pool.
 *
 * @param <T> what the caller attaches to a request (a promise, say) and gets back with its grant
 */
public final class Scheduler<T> {

  /**
   * A request or group that was granted after waiting.
   *
   * @param allocations one per bundle, in bundle order; a single request's alone
   */
  public record Grant<T>(long requestId, T ticket, List<Allocation> allocations) {

    public Grant {
      allocations = List.copyOf(allocations);
    }

    /** A single request's grant. */
    public Grant(long requestId, T ticket, Allocation allocation) {
      this(requestId, ticket, List.of(allocation));
    }

    /** The allocation of a single request (of a group: its first bundle's). */
    public Allocation allocation() {
      return allocations.get(0);
    }
  }

  /**
   * A request or group still waiting, as shown by metrics and the monitor.
   *
   * @param request the single request, or null for a group
   * @param group the placement group, or null for a single request
   * @throws IllegalArgumentException unless exactly one of {@code request} and {@code group} is given
   */
  public record Waiting<T>(long requestId, ResourceRequest request, GroupRequest group, int priority, T ticket,
      long sinceNanos) {

    public Waiting {
      if ((request == null) == (group == null)) {
        throw new IllegalArgumentException("a waiting entry is a request or a group, exactly one of them");
      }
    }

    /** A single request at priority 0. */
    public Waiting(long requestId, ResourceRequest request, T ticket, long sinceNanos) {
      this(requestId, request, null, 0, ticket, sinceNanos);
    }

    /** What it asks for, in words: the request's or the group's. */
    public String words() {
      return request != null ? request.toString() : group.toString();
    }
  }

  /** The outcome of a submission: granted now, or queued under {@code requestId}. */
  public record Submitted(long requestId, Optional<Allocation> allocation) {}

  /** The outcome of a group's submission: every bundle granted now (in bundle order), or queued under {@code requestId}. */
  public record GroupSubmitted(long requestId, Optional<List<Allocation>> allocations) {}

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
   * @param ahead entries still waiting ahead of it in queue order
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

  /** A waiting request or group and its reservation. */
  private static final class Entry<T> {
    final Waiting<T> waiting;
    /** The workers reserved for it (a group's: one per bundle, in bundle order), or null. */
    List<String> reserved;
    long feasibleAt = -1;
    boolean feasible;
    /** The class of its reason while the pool is at version {@link #classAt} ({@link ResourcePool#version}). */
    ReasonClass reasonClass;
    long classAt = -1;
    /** Whether it may preempt jobs of lower priority ({@link #takePreemptions}). */
    boolean preempt;
    /** The jobs being preempted for it; it searches again only once they have all ended. */
    Set<String> claims = Set.of();

    Entry(Waiting<T> waiting) {
      this.waiting = waiting;
    }

    ResourceRequest request() {
      return waiting.request();
    }

    GroupRequest group() {
      return waiting.group();
    }

    /** What it asks for, as a key of the caches of a walk: alike entries fit and fail alike. */
    Object asked() {
      return waiting.request() != null ? waiting.request() : waiting.group();
    }

    int priority() {
      return waiting.priority();
    }
  }

  /** Queue order: higher priority first, then arrival. */
  private static final Comparator<Entry<?>> ORDER = (a, b) -> a.priority() != b.priority()
      ? Integer.compare(b.priority(), a.priority())
      : Long.compare(a.waiting.requestId(), b.waiting.requestId());

  private final ResourcePool pool;
  private final Supplier<String> jobIds;
  private final TreeSet<Entry<T>> queue = new TreeSet<>(ORDER);
  private final Map<Long, Entry<T>> byId = new HashMap<>();
  /** Worker id to the entry that reserved it. */
  private final Map<String, Entry<T>> reservations = new HashMap<>();
  private long nextRequestId = 1;

  public Scheduler(ResourcePool pool, Supplier<String> jobIds) {
    this.pool = pool;
    this.jobIds = jobIds;
  }

  public ResourcePool pool() {
    return pool;
  }

  /** {@link #submit(ResourceRequest, int, Object)} at priority 0. */
  public Submitted submit(ResourceRequest request, T ticket) {
    return submit(request, 0, ticket);
  }

  /**
   * Grants the request now if it fits on a worker that no entry ahead of it (priority {@code priority} or
   * higher) reserved; else queues it, reserving a worker for it if it can ever fit.
   *
   * @throws IllegalArgumentException if the request is null, or the job id drawn holds resources already
   */
  public Submitted submit(ResourceRequest request, int priority, T ticket) {
    return submit(request, priority, false, ticket);
  }

  /**
   * {@link #submit(ResourceRequest, int, Object)}, for a request that, with {@code preempt}, may have jobs
   * of lower priority preempted for it while it waits ({@link #takePreemptions}).
   */
  public Submitted submit(ResourceRequest request, int priority, boolean preempt, T ticket) {
    if (request == null) {
      throw new IllegalArgumentException("a request is needed, not null");
    }
    long id = nextRequestId++;
    Predicate<String> ahead = reservedAhead(priority);
    ResourcePool.Placement p = pool.find(request, ahead);
    if (p != null) {
      return new Submitted(id, Optional.of(pool.take(jobIds.get(), request, p)));
    }
    Entry<T> e = enqueue(new Waiting<>(id, request, null, priority, ticket, System.nanoTime()));
    e.preempt = preempt;
    if (feasible(e)) {
      String w = pool.reservationFor(request, ahead);
      if (w != null) {
        reserve(e, List.of(w));
      }
    }
    return new Submitted(id, Optional.empty());
  }

  /**
   * Grants every bundle of the group now if they fit, by its strategy, on workers that no entry ahead of
   * it reserved; else queues it, reserving workers for its bundles if it can ever fit. Nothing is held
   * for a group that waits.
   *
   * @throws IllegalArgumentException if the group is null, or a job id drawn is null, taken or repeated
   *     ({@link ResourcePool#allocateGroup})
   */
  public GroupSubmitted submitGroup(GroupRequest group, int priority, T ticket) {
    if (group == null) {
      throw new IllegalArgumentException("a placement group is needed, not null");
    }
    long id = nextRequestId++;
    Predicate<String> ahead = reservedAhead(priority);
    Optional<List<Allocation>> got = pool.allocateGroup(jobIds, group, ahead);
    if (got.isPresent()) {
      return new GroupSubmitted(id, got);
    }
    Entry<T> e = enqueue(new Waiting<>(id, null, group, priority, ticket, System.nanoTime()));
    if (feasible(e)) {
      List<String> plan = pool.planFor(group, ahead);
      if (plan != null) {
        reserve(e, plan);
      }
    }
    return new GroupSubmitted(id, Optional.empty());
  }

  /**
   * Serves waiting entries by the queue rule of this class and renews reservations.
   *
   * <p>Cheap with a long queue: it returns at once when nothing is vacant, stops when every worker is
   * reserved, and tries each distinct request or group that failed once in this walk no more (what failed
   * stays failed: vacancies only shrink and reservations only grow during a walk). A group placed on its
   * reserved workers is tried for each entry, as its reservation is its own.
   */
  public List<Grant<T>> drain() {
    List<Grant<T>> grants = new ArrayList<>();
    if (queue.isEmpty() || !pool.anythingVacant()) {
      return grants;
    }
    Set<String> blocked = new HashSet<>();
    Set<Object> fitsNowhere = new HashSet<>();
    Set<Object> reservesNothing = new HashSet<>();
    int workers = pool.workerCount();
    for (Iterator<Entry<T>> it = queue.iterator(); it.hasNext(); ) {
      Entry<T> e = it.next();
      if (!feasible(e)) {
        unreserve(e);
        continue;
      }
      Object asked = e.asked();
      if (!fitsNowhere.contains(asked)) {
        List<Allocation> got = placeNow(e, blocked.isEmpty() ? null : blocked::contains);
        if (got != null) {
          grant(e, got, it, grants);
          continue;
        }
        fitsNowhere.add(asked);
      }
      if (e.reserved != null && !open(e.reserved, blocked)) {
        unreserve(e);
      }
      if (e.reserved == null && !reservesNothing.contains(asked)) {
        List<String> plan = e.group() != null ? pool.planFor(e.group(), blocked::contains)
            : listOf(pool.reservationFor(e.request(), blocked::contains));
        if (plan == null) {
          reservesNothing.add(asked);
        } else {
          reserve(e, plan);
        }
      }
      if (e.reserved != null) {
        if (e.group() != null) {
          // The greedy placement may miss what the plan holds: the plan is what the bound rests on.
          Optional<List<Allocation>> onPlan = pool.allocateGroupOn(jobIds, e.group(), e.reserved);
          if (onPlan.isPresent()) {
            grant(e, onPlan.get(), it, grants);
            continue;
          }
        }
        blocked.addAll(e.reserved);
        if (blocked.size() >= workers) {
          break;
        }
      }
    }
    return grants;
  }

  /** Jobs to preempt for a waiting request, on its worker. */
  public record Preemption<T>(long requestId, T ticket, String workerId, List<String> victims) {}

  /**
   * Picks the jobs to preempt for waiting requests that may preempt ({@link #submit(ResourceRequest, int,
   * boolean, Object)}), in queue order: for each one that can ever fit, does not fit now on a worker not
   * reserved ahead of it, and has no preemption under way, the victims that {@code jobs} allows on one
   * worker (jobs of strictly lower priority; never a job already claimed for another request), as few as
   * possible. The request then holds a reservation on that worker, so that what the victims free goes to it
   * (or to a request ahead of it). Nothing is released here: the caller stops the victims and releases each
   * as it ends, then drains.
   */
  public List<Preemption<T>> takePreemptions(Preemptible jobs) {
    List<Preemption<T>> out = new ArrayList<>();
    Set<String> claimed = new HashSet<>();
    boolean anyToSearch = false;
    for (Entry<T> e : queue) {
      if (e.preempt) {
        e.claims.stream().filter(pool::holds).forEach(claimed::add);
        anyToSearch |= e.claims.stream().noneMatch(pool::holds);
      }
    }
    if (!anyToSearch) {
      return out;
    }
    Set<String> blocked = new HashSet<>();
    for (Entry<T> e : queue) {
      if (e.preempt && e.request() != null && feasible(e) && e.claims.stream().noneMatch(pool::holds)
          && pool.find(e.request(), blocked::contains) == null) {
        Optional<VictimSearch.Victims> v = VictimSearch.find(pool, e.request(), e.priority(), jobs, claimed,
            blocked::contains);
        if (v.isPresent()) {
          e.claims = Set.copyOf(v.get().jobIds());
          claimed.addAll(e.claims);
          unreserve(e);
          reserve(e, List.of(v.get().workerId()));
          out.add(new Preemption<>(e.waiting.requestId(), e.waiting.ticket(), v.get().workerId(), v.get().jobIds()));
        }
      }
      if (e.reserved != null) {
        blocked.addAll(e.reserved);
      }
    }
    return out;
  }

  /** Removes a waiting entry, for instance when its timeout fires; empty if already served. */
  public Optional<T> cancel(long requestId) {
    Entry<T> e = byId.remove(requestId);
    if (e == null) {
      return Optional.empty();
    }
    queue.remove(e);
    unreserve(e);
    return Optional.of(e.waiting.ticket());
  }

  /** Removes every waiting entry whose ticket matches, in queue order; returns their tickets. */
  public List<T> cancelIf(Predicate<T> match) {
    List<T> cancelled = new ArrayList<>();
    for (Iterator<Entry<T>> it = queue.iterator(); it.hasNext(); ) {
      Entry<T> e = it.next();
      if (match.test(e.waiting.ticket())) {
        remove(e, it);
        cancelled.add(e.waiting.ticket());
      }
    }
    return cancelled;
  }

  /**
   * Removes the waiting entries that the pool could never hold any more, except those whose ticket
   * satisfies {@code keepWaiting} (the client chose to wait for workers that may join).
   *
   * @return the removed entries, in queue order; {@link ResourcePool#neverFits} or
   *     {@link ResourcePool#groupNeverFits} says why for each
   */
  public List<Waiting<T>> dropNeverFitting(Predicate<T> keepWaiting) {
    List<Waiting<T>> dropped = new ArrayList<>();
    for (Iterator<Entry<T>> it = queue.iterator(); it.hasNext(); ) {
      Entry<T> e = it.next();
      if (!feasible(e) && !keepWaiting.test(e.waiting.ticket())) {
        remove(e, it);
        dropped.add(e.waiting);
      }
    }
    return dropped;
  }

  /**
   * Why an entry is still waiting: its place in the queue, the class of the reason, one sentence, and
   * per group of alike workers the constraint that stops it (for a group, that stops the first bundle
   * that fits nowhere now). One pass over the queue and the workers.
   *
   * @return empty when the entry is not waiting (granted, cancelled or unknown)
   */
  public Optional<Reason> reason(long requestId) {
    Entry<T> e = byId.get(requestId);
    if (e == null) {
      return Optional.empty();
    }
    int ahead = queue.headSet(e).size();
    return Optional.of(e.group() != null ? groupReason(e.group(), ahead) : requestReason(e.request(), ahead));
  }

  private Reason requestReason(ResourceRequest r, int ahead) {
    Explanation x = pool.explanation(r, DETAIL_LINES);
    Optional<PoolShapes.Verdict> never = pool.verdict(r);
    ReasonClass kind = classOf(r, never, () -> x);
    String summary = never.isPresent() ? never.get().sentence()
        : kind == ReasonClass.QUEUED ? queued(ahead)
        : "no worker can hold " + r + " now (" + x.lines().get(0) + ")";
    return new Reason(ahead, kind, summary, x.lines());
  }

  private Reason groupReason(GroupRequest g, int ahead) {
    int stuck = firstStuck(g);
    Explanation x = stuck < 0 ? null : pool.explanation(g.bundles().get(stuck), DETAIL_LINES);
    List<String> details = x == null ? List.of() : x.lines();
    Optional<PoolShapes.Verdict> never = pool.groupVerdict(g);
    if (never.isPresent()) {
      return new Reason(ahead, classOf(never.get()), never.get().sentence(), details);
    }
    if (x != null) {
      ResourceRequest b = g.bundles().get(stuck);
      return new Reason(ahead, classOf(b, Optional.empty(), () -> x),
          "bundle " + stuck + " (" + b + ") does not fit now: " + x.lines().get(0), details);
    }
    if (pool.groupFitsNow(g)) {
      return new Reason(ahead, ReasonClass.QUEUED, queued(ahead), details);
    }
    return new Reason(ahead, ReasonClass.BUSY, together(g), details);
  }

  private static String queued(int ahead) {
    return "it fits now only on workers reserved for earlier requests (" + Texts.count(ahead, "request")
        + " waiting ahead of it)";
  }

  /** Why a group whose every bundle fits somewhere alone does not fit now: the strategy, in words. */
  private static String together(GroupRequest g) {
    int n = g.size();
    return switch (g.strategy()) {
      case STRICT_PACK -> "no worker holds all " + n + " bundles together now (STRICT_PACK)";
      case STRICT_SPREAD -> "no " + n + " distinct workers hold the " + n + " bundles, one each, now (STRICT_SPREAD)";
      default -> "its " + n + " bundles do not fit at once now (" + g.strategy() + ")";
    };
  }

  /** The first bundle that fits on no worker now, or -1. */
  private int firstStuck(GroupRequest g) {
    for (int i = 0; i < g.size(); i++) {
      if (pool.find(g.bundles().get(i), null) == null) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The classes of the reasons of the first {@code max} waiting entries, in queue order: what
   * {@link #reason} says of each, for metrics, without the sentences. A class is kept on its entry
   * while the pool stays the same, and worked out once per distinct request or group after it changed,
   * so that asking again costs one pass over these entries.
   */
  public List<ReasonClass> reasonClasses(int max) {
    long version = pool.version();
    Map<Object, ReasonClass> worked = new HashMap<>();
    List<ReasonClass> out = new ArrayList<>(Math.min(max, queue.size()));
    for (Entry<T> e : queue) {
      if (out.size() >= max) {
        break;
      }
      if (e.classAt != version) {
        e.reasonClass = worked.computeIfAbsent(e.asked(), a -> e.group() != null ? groupClass(e.group())
            : classOf(e.request(), pool.verdict(e.request()), () -> pool.explanation(e.request(), 1)));
        e.classAt = version;
      }
      out.add(e.reasonClass);
    }
    return out;
  }

  /** What {@link #groupReason} classes the group as, without its sentences. */
  private ReasonClass groupClass(GroupRequest g) {
    Optional<PoolShapes.Verdict> never = pool.groupVerdict(g);
    if (never.isPresent()) {
      return classOf(never.get());
    }
    int stuck = firstStuck(g);
    if (stuck >= 0) {
      ResourceRequest b = g.bundles().get(stuck);
      return classOf(b, Optional.empty(), () -> pool.explanation(b, 1));
    }
    return pool.groupFitsNow(g) ? ReasonClass.QUEUED : ReasonClass.BUSY;
  }

  /**
   * The class of what {@code r} waits for in the pool as it is now, given whether it could ever fit; the
   * explanation of the workers, the costly part, is asked only when it decides.
   */
  private ReasonClass classOf(ResourceRequest r, Optional<PoolShapes.Verdict> never, Supplier<Explanation> explanation) {
    if (never.isPresent()) {
      return classOf(never.get());
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

  private static ReasonClass classOf(PoolShapes.Verdict never) {
    return switch (never.kind()) {
      case MODEL -> ReasonClass.MODEL;
      case MEMORY -> ReasonClass.MEMORY;
      default -> ReasonClass.NO_WORKER;
    };
  }

  /** The waiting entries in queue order. */
  public List<Waiting<T>> waiting() {
    List<Waiting<T>> list = new ArrayList<>(queue.size());
    for (Entry<T> e : queue) {
      list.add(e.waiting);
    }
    return List.copyOf(list);
  }

  public int waitingCount() {
    return queue.size();
  }

  /** The first worker reserved for a waiting entry, if any (tests and status). */
  public Optional<String> reservedWorker(long requestId) {
    return reservedWorkers(requestId).stream().findFirst();
  }

  /** The workers reserved for a waiting entry, a group's one per bundle in bundle order; empty if none (tests and status). */
  public List<String> reservedWorkers(long requestId) {
    Entry<T> e = byId.get(requestId);
    return e == null || e.reserved == null ? List.of() : e.reserved;
  }

  // ---- internals ----------------------------------------------------------------------------

  private Entry<T> enqueue(Waiting<T> w) {
    Entry<T> e = new Entry<>(w);
    queue.add(e);
    byId.put(w.requestId(), e);
    return e;
  }

  private void remove(Entry<T> e, Iterator<Entry<T>> it) {
    it.remove();
    byId.remove(e.waiting.requestId());
    unreserve(e);
  }

  private void grant(Entry<T> e, List<Allocation> got, Iterator<Entry<T>> it, List<Grant<T>> grants) {
    remove(e, it);
    grants.add(new Grant<>(e.waiting.requestId(), e.waiting.ticket(), got));
  }

  /** Places the entry now on workers {@code avoid} does not name; null when it does not fit. */
  private List<Allocation> placeNow(Entry<T> e, Predicate<String> avoid) {
    if (e.group() != null) {
      return pool.allocateGroup(jobIds, e.group(), avoid).orElse(null);
    }
    ResourcePool.Placement p = pool.find(e.request(), avoid);
    return p == null ? null : List.of(pool.take(jobIds.get(), e.request(), p));
  }

  /** Workers reserved by entries that a newcomer of {@code priority} queues behind; null when none is reserved. */
  private Predicate<String> reservedAhead(int priority) {
    if (reservations.isEmpty()) {
      return null;
    }
    return id -> {
      Entry<T> owner = reservations.get(id);
      return owner != null && owner.priority() >= priority;
    };
  }

  /** Whether every reserved worker is still in service and reserved by no entry ahead. */
  private boolean open(List<String> reserved, Set<String> blocked) {
    for (String w : reserved) {
      if (blocked.contains(w) || !pool.inService(w)) {
        return false;
      }
    }
    return true;
  }

  private static List<String> listOf(String worker) {
    return worker == null ? null : List.of(worker);
  }

  /** Feasibility, recomputed only when workers joined or left since it was last known. */
  private boolean feasible(Entry<T> e) {
    long version = pool.shapeVersion();
    if (e.feasibleAt != version) {
      e.feasible = e.group() != null ? pool.canEverFitGroup(e.group()) : pool.canEverFit(e.request());
      e.feasibleAt = version;
    }
    return e.feasible;
  }

  /**
   * Reserves {@code workers} for {@code e}, taking them from later entries that held them: such an entry
   * loses its whole reservation, as a group's workers make sense only together.
   */
  private void reserve(Entry<T> e, List<String> workers) {
    for (String w : workers) {
      Entry<T> previous = reservations.get(w);
      if (previous != null && previous != e) {
        unreserve(previous);
      }
    }
    for (String w : workers) {
      reservations.put(w, e);
    }
    e.reserved = workers;
  }

  private void unreserve(Entry<T> e) {
    if (e.reserved != null) {
      for (String w : e.reserved) {
        reservations.remove(w, e);
      }
      e.reserved = null;
    }
  }
}
