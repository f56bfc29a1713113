package org.parl.internal.client;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.parl.ClientConnector;
import org.parl.ConnectOptions;
import org.parl.ParlClient;

/** The client implementation behind {@link org.parl.Parl}, found through the service loader. */
public final class Connector implements ClientConnector {

  static {
    // before the client first logs or starts Vert.x: a program without an SLF4J binding sees no SLF4J notice
    FallbackLogging.installIfNoBinding();
  }

  @Override
  public Future<ParlClient> connect(Vertx vertx, ConnectOptions options) {
    return ParlClientImpl.connect(vertx, options);
  }
}
