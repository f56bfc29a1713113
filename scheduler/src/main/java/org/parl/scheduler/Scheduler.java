package org.parl.scheduler;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Serves job requests from a {@link ResourcePool} in arrival order.
 *
 * <p>A request is granted at once when no earlier request is still waiting for resources that
 * the cluster has; otherwise it joins a FIFO that {@link #drain()} serves whenever resources come
 * back (a job ended, a worker joined). The head of the queue blocks later requests so that a large
 * request is not starved by a stream of small ones, except for requests that no live worker could
 * ever hold: they wait for a bigger worker to join without blocking anybody. Timeouts belong to
 * the caller, which {@linkplain #cancel cancels} a request whose time is up.
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

  private final ResourcePool pool;
  private final Supplier<String> jobIds;
  private final LinkedHashMap<Long, Waiting<T>> waiting = new LinkedHashMap<>();
  private long nextRequestId = 1;

  public Scheduler(ResourcePool pool, Supplier<String> jobIds) {
    this.pool = pool;
    this.jobIds = jobIds;
  }

  public ResourcePool pool() {
    return pool;
  }

  /** Grants the request now if nobody ahead of it is waiting and a worker fits, else queues it. */
  public Submitted submit(ResourceRequest request, T ticket) {
    long id = nextRequestId++;
    if (!anyServableWaiting()) {
      Optional<Allocation> a = pool.allocate(jobIds.get(), request);
      if (a.isPresent()) {
        return new Submitted(id, a);
      }
    }
    waiting.put(id, new Waiting<>(id, request, ticket, System.nanoTime()));
    return new Submitted(id, Optional.empty());
  }

  /** Serves waiting requests in order, stopping at the first one that the pool cannot hold yet. */
  public List<Grant<T>> drain() {
    List<Grant<T>> grants = new ArrayList<>();
    for (Iterator<Waiting<T>> it = waiting.values().iterator(); it.hasNext(); ) {
      Waiting<T> w = it.next();
      if (!pool.canEverFit(w.request())) {
        continue;
      }
      Optional<Allocation> a = pool.allocate(jobIds.get(), w.request());
      if (a.isEmpty()) {
        break;
      }
      it.remove();
      grants.add(new Grant<>(w.requestId(), w.ticket(), a.get()));
    }
    return grants;
  }

  /** Removes a waiting request, for instance when its timeout fires; empty if already served. */
  public Optional<T> cancel(long requestId) {
    Waiting<T> w = waiting.remove(requestId);
    return w == null ? Optional.empty() : Optional.of(w.ticket());
  }

  /** Removes every waiting request whose ticket matches, in order; returns their tickets. */
  public List<T> cancelIf(java.util.function.Predicate<T> match) {
    List<T> cancelled = new ArrayList<>();
    for (Iterator<Waiting<T>> it = waiting.values().iterator(); it.hasNext(); ) {
      Waiting<T> w = it.next();
      if (match.test(w.ticket())) {
        it.remove();
        cancelled.add(w.ticket());
      }
    }
    return cancelled;
  }

  public List<Waiting<T>> waiting() {
    return List.copyOf(waiting.values());
  }

  public int waitingCount() {
    return waiting.size();
  }

  private boolean anyServableWaiting() {
    for (Waiting<T> w : waiting.values()) {
      if (pool.canEverFit(w.request())) {
        return true;
      }
    }
    return false;
  }
}
