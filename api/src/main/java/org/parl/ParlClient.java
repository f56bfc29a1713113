package org.parl;

import io.vertx.core.Future;
import java.util.List;

/**
 * A connection to a parl cluster, from {@link Parl#connect(String)}. It creates actors and, when
 * closed, frees every actor it created.
 */
public interface ParlClient extends AutoCloseable {

  /**
   * Starts describing an actor: {@code api} is the interface callers use, {@code impl} the class
   * that runs remotely (it needs a public constructor). Defaults come from {@link RemoteClass}.
   */
  <T> ActorBuilder<T> actor(Class<T> api, Class<? extends T> impl);

  /**
   * Reserves a placement group: every bundle at once, on workers as {@code strategy} says, or none
   * (no partial hold is ever seen by others). It waits in the same queue as creates, up to
   * {@link ConnectOptions#getResourceWaitTimeout()}, at the default priority. Actors are then created
   * into its bundles with {@link ActorBuilder#inGroup}. The future fails with
   * {@link InvalidRequestException} when there are no bundles or more than 1024, a bundle's amounts are
   * malformed, or no worker (or set of workers, for the strict strategies) of the cluster could ever hold
   * the group (the message names the bundle or the strategy); with {@link ClusterMismatchException} for
   * GPUs on a CPU cluster or the reverse; with {@link ResourceException} when the wait ran out (the
   * message says which bundle does not fit now and why); with {@link ParlException} for anything else.
   */
  Future<PlacementGroup> createGroupAsync(PlacementStrategy strategy, List<Bundle> bundles);

  /**
   * {@link #createGroupAsync(PlacementStrategy, List)} at a priority from 0 to
   * {@link ActorBuilder#MAX_PRIORITY} (see {@link ActorBuilder#priority}); fails with
   * {@link InvalidRequestException} for one out of range.
   */
  Future<PlacementGroup> createGroupAsync(PlacementStrategy strategy, List<Bundle> bundles, int priority);

  /** Blocking {@link #createGroupAsync(PlacementStrategy, List)}; throws what its future fails with. Not on an event loop. */
  PlacementGroup createGroup(PlacementStrategy strategy, Bundle... bundles);

  /** Frees the actor behind a blocking proxy returned by {@link ActorBuilder#create()}. */
  void release(Object proxy);

  /** This client's id in the cluster, as the monitor shows it. */
  String id();

  /** {@code "cpu"}, {@code "gpu"} or {@code "mixed"}. */
  String clusterType();

  /**
   * The creates waiting for resources on the cluster now, in queue order, each with the reason the
   * JobCenter computes for it (every client's, so that a wait behind others can be understood). The
   * future fails with {@link ParlException} when the master does not answer, and with
   * {@link InvalidRequestException} when this client is closed.
   */
  Future<List<PendingCreate>> waiting();

  /** The cluster's web monitor, or an empty string when it runs none. */
  String monitorUrl();

  /** Frees every actor this client created and disconnects. */
  Future<Void> closeAsync();

  /** Blocking {@link #closeAsync()}; never throws for actors that were already lost. */
  @Override
  void close();
}
