package org.parl.internal.client;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import org.parl.ActorLostException;
import org.parl.AuthenticationException;
import org.parl.ParlException;
import org.parl.internal.net.HostPort;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.wire.BadMessageException;
import org.parl.internal.wire.HttpsServerException;
import org.parl.internal.wire.gateway.ClientHandshake;
import org.parl.internal.wire.gateway.GatewayAuth;
import org.parl.internal.wire.gateway.GatewayCodec;
import org.parl.internal.wire.gateway.GatewayReply;
import org.parl.internal.wire.gateway.GatewayRequest;

/**
 * The client's control connection to the master's gateway (typed JSON lines over TLS, see
 * {@code org.parl.internal.wire.gateway}, on a {@link GatewaySocket}), authenticated with the cluster token
 * before anything is sent: requests are matched to answers by id, events (a job ended) go to a
 * handler, and a ping every few seconds keeps the master aware that the client lives. Used on one
 * Vert.x context.
 */
final class GatewayConnection {

  /** The gateway drops a client silent for 10 s (a cut-off host) and stops its jobs. */
  static final long PING_MS = 2_000;

  private final Vertx vertx;
  private final Context context;
  private final String address;
  private final Map<Long, Promise<GatewayReply.Answer>> pending = new HashMap<>();
  private final Promise<GatewayReply.Challenge> challenged = Promise.promise();
  private GatewaySocket socket;
  private long nextId = 1;
  private long pingTimer = -1;
  private boolean closed;
  private Consumer<GatewayReply.JobEnded> onJobEnded = e -> {};
  private Consumer<String> onLost = why -> {};

  private GatewayConnection(Vertx vertx, Context context, String address) {
    this.vertx = vertx;
    this.context = context;
    this.address = address;
  }

  /**
   * Connects and authenticates with the cluster token (see {@code GatewayAuth}); completes once the
   * master has proved that it holds the same token, before anything else was sent. Fails with
   * {@link AuthenticationException} when the master refuses the token or does not prove it, and with
   * {@link ParlException} when nothing answers like a parl master within {@code timeoutMs}. Called on
   * the context the connection is then used on.
   *
   * <p>TLS takes any certificate (there is no CA to check it against): the authentication that follows
   * is bound to the certificate shown, so one other than the cluster's fails it.
   *
   * @param codecReady completes once the gateway's codec is warm: no line is read before
   */
  static Future<GatewayConnection> connect(Vertx vertx, HostPort master, ClusterToken token, Future<?> codecReady,
      long timeoutMs) {
    return connect(vertx, master, GatewaySocket.openAsync(master, socketTimeout(timeoutMs)), token, codecReady, timeoutMs);
  }

  /** {@link #connect(Vertx, HostPort, ClusterToken, Future, long)} on a socket being opened already. */
  static Future<GatewayConnection> connect(Vertx vertx, HostPort master, CompletionStage<GatewaySocket> opening,
      ClusterToken token, Future<?> codecReady, long timeoutMs) {
    GatewayConnection g = new GatewayConnection(vertx, vertx.getOrCreateContext(), master.toString());
    return Future.fromCompletionStage(opening, g.context)
        .recover(e -> Future.failedFuture(unreachable(master, e)))
        // the codec warm: decoding the challenge must not build it on the event loop
        .compose(s -> codecReady.compose(ready -> g.authenticate(s, token, timeoutMs)).onFailure(e -> s.close()))
        .map(authenticated -> g);
  }

  static int socketTimeout(long timeoutMs) {
    return (int) Math.min(timeoutMs, Integer.MAX_VALUE);
  }

  private static ParlException unreachable(HostPort master, Throwable e) {
    if (e instanceof HttpsServerException) {
      return new ParlException(e.getMessage() + ": parl's monitor serves HTTPS; connect to the master's address, the one "
          + "'bin/parl master' printed", e);
    }
    return new ParlException("cannot reach a parl master at " + master + " (" + e.getMessage() + "): start one with "
        + "'bin/parl master --port " + master.port() + "', or check the address", e);
  }

  private Future<Void> authenticate(GatewaySocket s, ClusterToken token, long timeoutMs) {
    socket = s;
    ClientHandshake handshake;
    try {
      handshake = new ClientHandshake(token, GatewayAuth.fingerprint(s.peerCertificate()));
    } catch (IOException | RuntimeException e) {
      s.close();
      return Future.failedFuture(new ParlException("the master at " + address + " presented no usable TLS certificate ("
          + e.getMessage() + "): it is not a parl master of this version"));
    }
    s.start(context, this::received,
        () -> lost("the connection to the master at " + address + " closed: the master stopped or died"));
    long timer = vertx.setTimer(timeoutMs, t -> challenged.tryFail(new ParlException("the master at " + address
        + " did not start authentication within " + timeoutMs + " ms: check the address, and that it runs this parl version")));
    return challenged.future()
        .compose(c -> request(id -> handshake.answer(c, id), GatewayReply.Authenticated.class, timeoutMs))
        .recover(e -> Future.failedFuture(e instanceof AuthenticationException ? ClientHandshake.refused(address, token)
            : e instanceof ActorLostException ? new ParlException("the master at " + address
                + " closed the connection during authentication: check the address, and that it runs this parl version")
            : e))
        .compose(proven -> handshake.verify(proven) ? Future.<Void>succeededFuture()
            : Future.failedFuture(ClientHandshake.unproven(address, token)))
        .onComplete(ar -> vertx.cancelTimer(timer))
        .onSuccess(v -> startPings())
        .onFailure(e -> close());
  }

  private void startPings() {
    pingTimer = vertx.setPeriodic(PING_MS, t -> request(GatewayRequest.Ping::new, GatewayReply.Done.class, PING_MS * 3)
        .onFailure(e -> {
          if (!closed) {
            socket.close();
          }
        }));
  }

  void onJobEnded(Consumer<GatewayReply.JobEnded> handler) {
    this.onJobEnded = handler;
  }

  void onLost(Consumer<String> handler) {
    this.onLost = handler;
  }

  /**
   * Sends a request made with the id this connection gives it; the answer of type {@code A}, or a
   * failure of the matching exception type.
   */
  <A extends GatewayReply.Answer> Future<A> request(LongFunction<GatewayRequest> request, Class<A> answerType,
      long timeoutMs) {
    if (closed) {
      return Future.failedFuture(new ActorLostException("the connection to the master at " + address + " is closed"));
    }
    long id = nextId++;
    GatewayRequest r = request.apply(id);
    Promise<GatewayReply.Answer> p = Promise.promise();
    pending.put(id, p);
    long timer = vertx.setTimer(timeoutMs, t -> {
      Promise<GatewayReply.Answer> expired = pending.remove(id);
      if (expired != null) {
        expired.fail(new ParlException("the master at " + address + " did not answer " + r.getClass().getSimpleName()
            + " within " + timeoutMs / 1000 + " s"));
      }
    });
    socket.write(GatewayCodec.encode(r));
    return p.future().onComplete(ar -> vertx.cancelTimer(timer)).compose(answer -> {
      if (answer instanceof GatewayReply.Failed f) {
        return Future.failedFuture(Errors.of(f.kind(), f.message()));
      }
      if (!answerType.isInstance(answer)) {
        return Future.failedFuture(new ParlException("the master answered " + r.getClass().getSimpleName() + " with "
            + answer.getClass().getSimpleName() + ": use the same parl version on both sides"));
      }
      return Future.succeededFuture(answerType.cast(answer));
    });
  }

  private void received(byte[] line) {
    GatewayReply reply;
    try {
      reply = GatewayCodec.reply(Buffer.buffer(line));
    } catch (BadMessageException e) {
      socket.close(); // not a parl master, or a different version of one
      return;
    }
    if (reply instanceof GatewayReply.Challenge c) {
      challenged.tryComplete(c);
    } else if (reply instanceof GatewayReply.JobEnded e) {
      onJobEnded.accept(e);
    } else if (reply instanceof GatewayReply.Answer a && a.requestId() != null) {
      Promise<GatewayReply.Answer> p = pending.remove(a.requestId());
      if (p != null) {
        p.complete(a);
      }
    }
  }

  private void lost(String why) {
    boolean wasOpen = !closed;
    closed = true;
    challenged.tryFail(new ActorLostException(why));
    vertx.cancelTimer(pingTimer);
    if (wasOpen) { // first, so that the requests failed below can be sent again to another master
      onLost.accept(why);
    }
    for (Promise<GatewayReply.Answer> p : Map.copyOf(pending).values()) {
      p.tryFail(new ActorLostException(why));
    }
    pending.clear();
  }

  Future<Void> close() {
    if (closed) {
      return Future.succeededFuture();
    }
    closed = true;
    vertx.cancelTimer(pingTimer);
    return Future.fromCompletionStage(socket.close(), context);
  }
}
