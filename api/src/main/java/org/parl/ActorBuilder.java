package org.parl;

import io.vertx.core.Future;

/**
 * Resources and constructor arguments of one actor; each setter overrides the class's
 * {@link RemoteClass} defaults and returns {@code this}.
 *
 * @param <T> the actor's interface
 */
public interface ActorBuilder<T> {

  /** GPUs for the actor (GPU cluster only). */
  ActorBuilder<T> gpus(int gpus);

  /** CPUs for the actor (CPU cluster only). */
  ActorBuilder<T> cpus(int cpus);

  /** Memory limit in MiB (heap and resident memory) of the actor's process; 0 for none. */
  ActorBuilder<T> maxMemoryMb(int maxMemoryMb);

  /** Whether to wait for vacant resources (default) or fail at once with {@link ResourceException}. */
  ActorBuilder<T> waitForResources(boolean wait);

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
   * or the client is closed, {@link RemoteException} when the constructor threw,
   * {@link RemoteSerializationException} when the constructor arguments cannot be sent,
   * {@link ActorLostException} when the job ended while it was set up, and {@link ParlException}
   * for anything else.
   */
  Future<RemoteActor<T>> createAsync();
}
