package org.parl;

import io.vertx.core.Future;

/**
 * Resources and constructor arguments of one actor; each setter overrides the class's
 * {@link RemoteClass} defaults and returns {@code this}.
 *
 * @param <T> the actor's interface
 */
public interface ActorBuilder<T> {

  /** The highest {@link #priority}. */
  int MAX_PRIORITY = 100;

  /** Whole GPUs for the actor (GPU and mixed clusters). */
  ActorBuilder<T> gpus(int gpus);

  /**
   * GPUs for the actor (GPU and mixed clusters): a whole number, or a share of one GPU below 1 in
   * thousandths ({@code 0.25}, {@code 0.125}); a share never spans two GPUs. Shares are counted
   * exactly, in integer thousandths. {@link #createAsync()} fails with {@link InvalidRequestException}
   * for a fraction that is not a whole number of thousandths, or an amount above 1 that is not whole.
   */
  ActorBuilder<T> gpus(double gpus);

  /**
   * GPU memory budget in MiB on each of its GPUs (GPU and mixed clusters), with or without a share:
   * the actor is placed only on a GPU whose memory minus the budgets already placed there holds it,
   * and is stopped with {@link ActorLostException} naming the budget when its processes use more.
   * With no {@code gpus}, the actor takes a place on one GPU by its budget alone. 0 for none.
   */
  ActorBuilder<T> gpuMemoryMb(long gpuMemoryMb);

  /**
   * Places the actor only on GPUs whose inventory name contains this text, ignoring case
   * ({@code "A100"}, or a MIG profile such as {@code "1g.10gb"}); null or empty for any GPU.
   */
  ActorBuilder<T> gpuModel(String gpuModel);

  /** CPUs for the actor (CPU clusters; on a mixed cluster also a GPU actor's own CPUs, default 1). */
  ActorBuilder<T> cpus(int cpus);

  /** Memory limit in MiB (heap and resident memory) of the actor's process; 0 for none. */
  ActorBuilder<T> maxMemoryMb(int maxMemoryMb);

  /** Whether to wait for vacant resources (default) or fail at once with {@link ResourceException}. */
  ActorBuilder<T> waitForResources(boolean wait);

  /**
   * Whether a request that no worker of the cluster could hold even with everything vacant waits
   * (up to the resource-wait timeout) for a worker that may join; by default (false) it fails at once
   * with {@link InvalidRequestException} naming the largest worker or the GPU models present.
   */
  ActorBuilder<T> waitForWorkers(boolean wait);

  /**
   * Its place in the queue while it waits for resources, 0 (the default) to {@link #MAX_PRIORITY}: a
   * waiting create of higher priority is served before every one of lower priority, and among equal
   * priorities the earlier first. {@link #createAsync()} fails with {@link InvalidRequestException} for
   * a priority out of range.
   */
  ActorBuilder<T> priority(int priority);

  /**
   * Whether, while it waits, the create may preempt running actors of strictly lower {@linkplain #priority
   * priority} that hold what it needs (default false): on one worker, the fewest such actors, those of the
   * lowest priority and, among equals, the youngest first; never an actor in a placement group. Their callers
   * get {@link ActorPreemptedException}, and their process trees are gone before their resources are granted
   * again. The cluster's operator allows it with {@code parl master --allow-preemption}; elsewhere
   * {@link #createAsync()} fails with {@link InvalidRequestException}.
   */
  ActorBuilder<T> preempt(boolean preempt);

  /**
   * Creates the actor into bundle {@code bundle} of a placement group of this client: it takes exactly
   * that bundle's resources on the bundle's worker (its own CPU and GPU settings are not used; its memory
   * limit is), at once and without waiting, and gives them back to the bundle when it ends. One actor
   * at a time holds a bundle. {@link #createAsync()} fails with {@link InvalidRequestException} for an
   * index out of range, a group of another client, or a bundle another actor holds, and with
   * {@link ActorLostException} when the group was removed or lost.
   */
  ActorBuilder<T> inGroup(PlacementGroup group, int bundle);

  /** Constructor arguments; the public constructor whose parameters accept them is used. */
  ActorBuilder<T> args(Object... args);

  /** Creates the actor and returns a blocking proxy of {@code T}. Do not call on an event loop. */
  T create();

  /**
   * Creates the actor asynchronously. The future completes on the calling thread's Vert.x context
   * when it has one, otherwise on a thread of the client; it fails with {@link ResourceException}
   * when the cluster has no room (and the builder does not wait, or the wait ran out),
   * {@link ClusterMismatchException} when it asks for GPUs of a CPU cluster or the reverse,
   * {@link InvalidRequestException} when the actor's code cannot be loaded, has no such constructor,
   * its resources are malformed or more than any worker of the cluster could hold (see
   * {@link #waitForWorkers}), or the client is closed, {@link RemoteException} when the constructor threw,
   * {@link RemoteSerializationException} when the constructor arguments cannot be sent,
   * {@link ActorLostException} when the job ended while it was set up, and {@link ParlException}
   * for anything else.
   */
  Future<RemoteActor<T>> createAsync();
}
