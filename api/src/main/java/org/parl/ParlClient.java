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
