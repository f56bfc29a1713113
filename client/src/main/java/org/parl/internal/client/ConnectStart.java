package org.parl.internal.client;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.parl.internal.net.HostPort;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.wire.DataMessageCodec;
import org.parl.internal.wire.ValueCodec;
import org.parl.internal.wire.gateway.GatewayCodec;

/**
 * What a client's connect needs besides Vert.x, begun before Vert.x is built (a fresh JVM's longest
 * step before its first connection): the first master's TLS connection on one thread; the token,
 * then the gateway's codec, then the data connection's codecs on another. Each future completes
 * once, or fails with what went wrong.
 */
final class ConnectStart {

  final CompletableFuture<GatewaySocket> socket;
  final CompletableFuture<ClusterToken> token = new CompletableFuture<>();
  final CompletableFuture<Void> gatewayCodec = new CompletableFuture<>();
  /** The data connection's codecs: a first create should not pay for building them. */
  final CompletableFuture<ValueCodec> valueCodec = new CompletableFuture<>();

  private ConnectStart(HostPort master, int timeoutMs) {
    socket = GatewaySocket.openAsync(master, timeoutMs);
    token.whenComplete((t, e) -> {
      if (e != null) { // no token: the connection is not used
        socket.thenAccept(GatewaySocket::close);
      }
    });
  }

  /**
   * Begins; returns at once.
   *
   * @param readToken reads the cluster token, or throws what says why there is none
   */
  static ConnectStart begin(HostPort master, int timeoutMs, Supplier<ClusterToken> readToken) {
    ConnectStart start = new ConnectStart(master, timeoutMs);
    Thread t = new Thread(() -> {
      run(start.token, readToken);
      run(start.gatewayCodec, () -> {
        GatewayCodec.warmUp();
        return null;
      });
      run(start.valueCodec, () -> {
        DataMessageCodec.warmUp();
        return new ValueCodec();
      });
    }, "parl-connect-start");
    t.setDaemon(true);
    t.start();
    return start;
  }

  private static <T> void run(CompletableFuture<T> f, Supplier<T> step) {
    try {
      f.complete(step.get());
    } catch (RuntimeException | Error e) {
      f.completeExceptionally(e);
    }
  }
}
