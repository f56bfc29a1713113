package org.parl.internal.client;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.parl.ParlException;
import org.parl.RemoteSerializationException;
import org.parl.internal.wire.Frames;

/**
 * The requests of one actor connection that wait for their answer, by id. An answer completes its
 * request's future (on the caller's Vert.x context when it had one); once the connection is lost,
 * every waiting and every later request fails with the same reason.
 */
final class PendingCalls {

  private record Pending(Promise<Object> promise, ActorConnection.Decoder<?> decoder, Context context) {}

  private final AtomicLong ids = new AtomicLong();
  private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
  private final AtomicReference<ParlException> lost = new AtomicReference<>();

  long nextId() {
    return ids.incrementAndGet();
  }

  /** Registers request {@code id}; its future fails at once when the connection is already lost. */
  @SuppressWarnings("unchecked")
  <R> Future<R> add(long id, ActorConnection.Decoder<R> decoder) {
    Context ctx = Context.isOnVertxThread() ? Vertx.currentContext() : null;
    Promise<Object> promise = Promise.promise();
    pending.put(id, new Pending(promise, decoder, ctx));
    // checked after the put: a concurrent loseAll either sees this request or is seen here
    ParlException broken = lost.get();
    if (broken != null) {
      fail(id, broken);
    }
    return (Future<R>) promise.future();
  }

  boolean isEmpty() {
    return pending.isEmpty();
  }

  ParlException lost() {
    return lost.get();
  }

  /**
   * Completes the request a frame answers: a RESULT decoded by the request's decoder (on this
   * thread, before the frame's buffer is reused), an ERROR as the matching exception. An answer
   * to no waiting request is dropped.
   */
  void answer(Frames.Frame f) {
    Pending p = pending.remove(f.id());
    if (p == null) {
      return;
    }
    if (f.type() == Frames.ERROR) {
      complete(p, null, Errors.fromJob(f.payload(), f.length()));
      return;
    }
    Object value;
    try {
      value = p.decoder().decode(f.payload(), f.length());
    } catch (Exception e) {
      complete(p, null, new RemoteSerializationException("the answer cannot be deserialised: " + e.getMessage(), e));
      return;
    }
    complete(p, value, null);
  }

  /** The connection is lost: fails every waiting and later request with {@code reason} (the first reason given). */
  void loseAll(ParlException reason) {
    lost.compareAndSet(null, reason);
    for (Long id : pending.keySet()) {
      fail(id, lost.get());
    }
  }

  private void fail(long id, ParlException e) {
    Pending p = pending.remove(id);
    if (p != null) {
      complete(p, null, e);
    }
  }

  private static void complete(Pending p, Object value, Throwable failure) {
    if (p.context() != null) {
      p.context().runOnContext(v -> finish(p.promise(), value, failure));
    } else {
      finish(p.promise(), value, failure);
    }
  }

  private static void finish(Promise<Object> promise, Object value, Throwable failure) {
    if (failure == null) {
      promise.tryComplete(value);
    } else {
      promise.tryFail(failure);
    }
  }
}
