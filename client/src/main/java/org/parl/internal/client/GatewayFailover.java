package org.parl.internal.client;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.parl.AuthenticationException;
import org.parl.InvalidRequestException;
import org.parl.ParlException;
import org.parl.internal.net.HostPort;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.wire.gateway.GatewayReply;
import org.parl.internal.wire.gateway.GatewayRequest;

/**
 * The masters a client may talk to (docs/contract.md §10: {@code "hostA:8010,hostB:8011"}), and how it gets a
 * gateway connection from one of them: the first that answers at connect time; after the one in use
 * was lost, any that answers within {@link #RESUME_MS}, where the client resumes its session. Used on
 * the client's context.
 */
final class GatewayFailover {

  /**
   * How long a client whose master left looks for another one: as long as a standby's gateway holds a
   * resume hello while its JobCenter rebuilds the pool (a takeover takes ~5 s, longer on a loaded
   * host). The new JobCenter stops unclaimed jobs only 15 s after it took over, and a client waiting
   * at its gateway claims them as soon as it is active.
   */
  static final long RESUME_MS = 20_000;
  private static final long RETRY_MS = 250;

  private final Vertx vertx;
  private final List<HostPort> masters;
  private final ClusterToken token;
  private final Future<?> codecReady;
  private final long timeoutMs;
  /** The first master's socket, opened before there was a failover (null: none); taken by the first connect. */
  private CompletableFuture<GatewaySocket> first;

  private GatewayFailover(Vertx vertx, List<HostPort> masters, ClusterToken token, Future<?> codecReady, long timeoutMs,
      CompletableFuture<GatewaySocket> first) {
    this.first = first;
    this.vertx = vertx;
    this.masters = masters;
    this.token = token;
    this.codecReady = codecReady;
    this.timeoutMs = timeoutMs;
  }

  /**
   * The masters named by a {@code ConnectOptions} address.
   *
   * @throws InvalidRequestException naming what is wrong with the address
   */
  static List<HostPort> parse(String address) {
    List<HostPort> list = new ArrayList<>();
    for (String one : address.split(",", -1)) {
      try {
        list.add(HostPort.parse(one.strip()));
      } catch (IllegalArgumentException e) {
        throw new InvalidRequestException("the master's " + e.getMessage());
      }
    }
    return List.copyOf(list);
  }

  static GatewayFailover of(Vertx vertx, List<HostPort> masters, ClusterToken token, Future<?> codecReady, long timeoutMs) {
    return new GatewayFailover(vertx, masters, token, codecReady, timeoutMs, null);
  }

  /** @param first a socket to the first master, being opened already: the first connect uses it */
  static GatewayFailover of(Vertx vertx, List<HostPort> masters, ClusterToken token, Future<?> codecReady, long timeoutMs,
      CompletableFuture<GatewaySocket> first) {
    return new GatewayFailover(vertx, masters, token, codecReady, timeoutMs, first);
  }

  /** True when there is another master to turn to. */
  boolean canResume() {
    return masters.size() > 1;
  }

  /**
   * Connects to the first master that answers, saying {@code hello} (made with the request id); fails
   * with the last master's failure (an {@code AuthenticationException} at once: every master of a
   * cluster has the same token).
   */
  Future<Connected> connect(Function<Long, GatewayRequest> hello) {
    return attempt(0, hello, Long.MAX_VALUE);
  }

  /** Connects to any master within {@link #RESUME_MS}, trying them in turn, saying {@code hello}. */
  Future<Connected> resume(Function<Long, GatewayRequest> hello) {
    return attempt(0, hello, System.currentTimeMillis() + RESUME_MS);
  }

  /** A connection and its master's welcome. */
  record Connected(GatewayConnection gateway, GatewayReply.Welcome welcome) {}

  /**
   * A hello's answer waits the connect timeout, or during a resume the rest of its time: a standby's
   * gateway answers a resume hello only once its JobCenter is active.
   */
  private long helloTimeoutMs(long deadline) {
    return deadline == Long.MAX_VALUE ? timeoutMs : Math.max(timeoutMs, deadline - System.currentTimeMillis());
  }

  private Future<Connected> attempt(int index, Function<Long, GatewayRequest> hello, long deadline) {
    HostPort master = masters.get(index % masters.size());
    Promise<Connected> result = Promise.promise();
    CompletableFuture<GatewaySocket> opening = index == 0 && first != null ? first
        : GatewaySocket.openAsync(master, GatewayConnection.socketTimeout(timeoutMs));
    first = null;
    GatewayConnection.connect(vertx, master, opening, token, codecReady, timeoutMs)
        .compose(g -> g.request(hello::apply, GatewayReply.Welcome.class, helloTimeoutMs(deadline))
            .map(w -> new Connected(g, w))
            .onFailure(e -> g.close()))
        .onComplete(ar -> {
          boolean again = ar.failed() && !(ar.cause() instanceof AuthenticationException)
              && (deadline == Long.MAX_VALUE ? index + 1 < masters.size() : System.currentTimeMillis() + RETRY_MS < deadline);
          if (!again) {
            result.handle(ar.failed() && masters.size() > 1 && !(ar.cause() instanceof AuthenticationException)
                ? Future.failedFuture(new ParlException("no master of " + masters + " answers: " + ar.cause().getMessage(),
                    ar.cause()))
                : ar);
          } else if (deadline == Long.MAX_VALUE) {
            attempt(index + 1, hello, deadline).onComplete(result);
          } else {
            vertx.setTimer(RETRY_MS, t -> attempt(index + 1, hello, deadline).onComplete(result));
          }
        });
    return result.future();
  }
}
