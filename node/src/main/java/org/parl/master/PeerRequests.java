package org.parl.master;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.parl.control.Failures;
import org.parl.internal.wire.ErrorKind;

/**
 * Requests in flight to other nodes, by node, so that they fail as soon as that node is known to
 * be gone. The event bus itself would let them wait for their send timeout.
 * Used from one context only.
 */
final class PeerRequests {

  private final Map<String, Set<Promise<?>>> byPeer = new HashMap<>();

  /** Returns a future that completes like {@code request}, or fails when the peer is lost first. */
  <T> Future<T> track(String peer, Future<T> request) {
    Promise<T> p = Promise.promise();
    Set<Promise<?>> pending = byPeer.computeIfAbsent(peer, k -> new HashSet<>());
    pending.add(p);
    request.onComplete(ar -> {
      pending.remove(p);
      if (pending.isEmpty()) {
        byPeer.remove(peer, pending);
      }
      if (ar.succeeded()) {
        p.tryComplete(ar.result());
      } else {
        p.tryFail(ar.cause());
      }
    });
    return p.future();
  }

  /** Fails everything still waiting on {@code peer}. */
  void lost(String peer, String cause) {
    Set<Promise<?>> pending = byPeer.remove(peer);
    if (pending != null) {
      for (Promise<?> p : pending) {
        p.tryFail(Failures.exception(ErrorKind.LOST, cause));
      }
    }
  }
}
