package org.parl.internal.client;

import io.vertx.core.Future;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import org.parl.RemoteActor;

/** An actor seen through {@link RemoteActor#withTimeout}: the same actor, with its own call timeout. */
final class TimedActor<T> implements RemoteActor<T> {

  private final RemoteActorImpl<T> actor;
  /** The timeout of every call made through this handle, 0 for none. */
  private final long timeoutMs;
  private T proxy;

  TimedActor(RemoteActorImpl<T> actor, long timeoutMs) {
    this.actor = actor;
    this.timeoutMs = timeoutMs;
  }

  /** A timeout in milliseconds, 0 for none (null). */
  static long millis(Duration timeout) {
    if (timeout == null) {
      return 0;
    }
    if (timeout.isZero() || timeout.isNegative()) {
      throw new IllegalArgumentException("a call timeout must be positive (or null for none), not " + timeout);
    }
    return Math.max(1, timeout.toMillis());
  }

  @Override
  public <R> Future<R> call(Function<? super T, R> method) {
    return actor.call(method, timeoutMs);
  }

  @Override
  public Future<Void> run(Consumer<? super T> method) {
    return actor.run(method, timeoutMs);
  }

  @Override
  public synchronized T proxy() {
    if (proxy == null) {
      proxy = actor.newProxy(timeoutMs);
    }
    return proxy;
  }

  @Override
  public <V> Future<V> get(String field, Class<V> type) {
    return actor.get(field, type, timeoutMs);
  }

  @Override
  public Future<Void> set(String field, Object value) {
    return actor.set(field, value, timeoutMs);
  }

  @Override
  public RemoteActor<T> withTimeout(Duration timeout) {
    return actor.withTimeout(timeout);
  }

  @Override
  public List<String> gpus() {
    return actor.gpus();
  }

  @Override
  public String jobId() {
    return actor.jobId();
  }

  @Override
  public String workerId() {
    return actor.workerId();
  }

  @Override
  public Future<Void> closeAsync() {
    return actor.closeAsync();
  }

  @Override
  public void close() {
    actor.close();
  }

  @Override
  public String toString() {
    return actor + (timeoutMs > 0 ? " with a " + timeoutMs + " ms call timeout" : " without a call timeout");
  }
}
