package org.parl;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * How {@link org.parl.Parl} finds the client implementation: the {@code parl} artifact provides
 * one through {@link java.util.ServiceLoader}, so that this API artifact depends on no runtime
 * (the way Ray's {@code java/api} is kept apart from its runtime). Not for users to implement.
 */
public interface ClientConnector {

  /**
   * Connects to a cluster.
   *
   * @param vertx the caller's Vert.x instance, or null for one owned by the client
   * @return the connected client; fails with a {@link org.parl.ParlException} subclass
   */
  Future<ParlClient> connect(Vertx vertx, ConnectOptions options);
}
