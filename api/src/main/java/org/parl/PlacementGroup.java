package org.parl;

import io.vertx.core.Future;
import java.util.List;

/**
 * Bundles of resources held together for one client, from {@link ParlClient#createGroupAsync}: every
 * bundle was reserved at once, and each stays held, on its worker, until the group is removed, its
 * client disconnects, or a worker holding one of its bundles leaves the cluster (the group then ends as a
 * whole, its actors with it). Actors are created into a bundle with {@link ActorBuilder#inGroup}.
 */
public interface PlacementGroup extends AutoCloseable {

  /** The group's id in the cluster ({@code pg-N}), as {@code parl status} and the monitor show it. */
  String id();

  PlacementStrategy strategy();

  /** The number of bundles. */
  int size();

  /** What bundle {@code i} holds, as asked. */
  Bundle bundle(int i);

  /** The worker that holds bundle {@code i}. */
  String workerOf(int i);

  /** The GPU ids bundle {@code i} holds on its worker (empty for CPUs alone), as its actors see them. */
  List<Integer> gpusOf(int i);

  /**
   * Removes the group: its actors are stopped (their callers get {@link ActorLostException}) and every
   * unit it held returns to the pool. Removing a group that is gone already succeeds. The future fails
   * with {@link ParlException} when the master does not answer.
   */
  Future<Void> removeAsync();

  /** Blocking {@link #removeAsync()}. Not on an event loop. */
  void remove();

  /** {@link #remove()}. */
  @Override
  void close();
}
