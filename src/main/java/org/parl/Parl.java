package org.parl;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.parl.client.ParlClientImpl;

/**
 * Entry point of the client API, like {@code parl.connect} in PARL:
 *
 * <pre>{@code
 * try (ParlClient parl = Parl.connect("127.0.0.1:8010")) {
 *   Counter c = parl.actor(Counter.class, CounterImpl.class).create();
 *   c.add(2);
 * }
 * }</pre>
 */
public final class Parl {

  private Parl() {}

  /** Connects to the master at {@code HOST:PORT}, with a Vert.x instance of the client's own. */
  public static ParlClient connect(String address) {
    return ParlClientImpl.connect(null, new ConnectOptions(address)).await();
  }

  /** Connects with the given options, with a Vert.x instance of the client's own. */
  public static ParlClient connect(ConnectOptions options) {
    return ParlClientImpl.connect(null, options).await();
  }

  /** Connects using the caller's Vert.x instance (which the client does not close). Blocking. */
  public static ParlClient connect(Vertx vertx, ConnectOptions options) {
    return ParlClientImpl.connect(vertx, options).await();
  }

  /** Connects asynchronously, for use on an event loop. */
  public static Future<ParlClient> connectAsync(Vertx vertx, ConnectOptions options) {
    return ParlClientImpl.connect(vertx, options);
  }
}
