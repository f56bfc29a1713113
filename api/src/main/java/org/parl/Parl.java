package org.parl;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ServiceLoader;

/**
 * Entry point of the client API, like {@code parl.connect} in PARL:
 *
 * <pre>{@code
 * try (ParlClient parl = Parl.connect("127.0.0.1:8010")) {
 *   Counter c = parl.actor(Counter.class, CounterImpl.class).create();
 *   c.add(2);
 * }
 * }</pre>
 *
 * <p>Every method fails with a {@link ParlException} subclass; a plain {@link ParlException} when
 * no master answers at the address, and an {@link AuthenticationException} when the cluster token
 * is missing or is not the cluster's (see {@link ConnectOptions#setTokenFile} for where it is looked for).
 */
public final class Parl {

  private Parl() {}

  /**
   * Connects to the cluster named by the environment, as a program run by {@code bin/parl slurm} finds
   * its cluster: the address in {@code PARL_ADDRESS} (else {@code 127.0.0.1:8010}) and the token the
   * usual way ({@code PARL_TOKEN}, {@code PARL_TOKEN_FILE}, then {@code $PARL_HOME/token}).
   */
  public static ParlClient connect() {
    return connect(new ConnectOptions());
  }

  /** Connects to the master at {@code HOST:PORT}, with a Vert.x instance of the client's own. */
  public static ParlClient connect(String address) {
    return connector().connect(null, new ConnectOptions(address)).await();
  }

  /** Connects with the given options, with a Vert.x instance of the client's own. */
  public static ParlClient connect(ConnectOptions options) {
    return connector().connect(null, options).await();
  }

  /** Connects using the caller's Vert.x instance (which the client does not close). Blocking. */
  public static ParlClient connect(Vertx vertx, ConnectOptions options) {
    return connector().connect(vertx, options).await();
  }

  /** Connects asynchronously, for use on an event loop. */
  public static Future<ParlClient> connectAsync(Vertx vertx, ConnectOptions options) {
    return connector().connect(vertx, options);
  }

  private static ClientConnector connector() {
    return Holder.CONNECTOR;
  }

  /**
   * Looked up once, on first use: where this API comes from, else through the calling thread's
   * context class loader (actor code in a job process, whose job has this API on its own class
   * path and the client among the installation's libraries).
   */
  private static final class Holder {
    static final ClientConnector CONNECTOR = ServiceLoader.load(ClientConnector.class, Parl.class.getClassLoader())
        .findFirst()
        .or(() -> ServiceLoader.load(ClientConnector.class, Thread.currentThread().getContextClassLoader()).findFirst())
        .orElseThrow(() -> new ParlException("the parl client is not on the class path: add the org.parl:parl "
            + "artifact (or the output of 'bin/parl classpath')"));
  }
}
