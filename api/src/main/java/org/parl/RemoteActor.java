package org.parl;

import io.vertx.core.Future;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A handle on a remote actor. Calls made through it are pipelined on one connection to the
 * actor's process and run there one at a time, in the order they were made.
 *
 * @param <T> the actor's interface
 */
public interface RemoteActor<T> extends AutoCloseable {

  /**
   * Calls one method asynchronously: {@code actor.call(c -> c.add(5))}. The function must call
   * exactly one method of its argument; it runs locally only to record that call.
   */
  <R> Future<R> call(Function<? super T, R> method);

  /** Like {@link #call} for methods that return nothing: {@code actor.run(c -> c.reset())}. */
  Future<Void> run(Consumer<? super T> method);

  /** A blocking proxy: each method call waits for the remote result. */
  T proxy();

  /** Reads a field of the remote object, declared or inherited, of any visibility. */
  <V> Future<V> get(String field, Class<V> type);

  /** Writes a field of the remote object. */
  Future<Void> set(String field, Object value);

  /** The GPU ids the actor was given (also its {@code CUDA_VISIBLE_DEVICES}); empty for CPU actors. */
  List<String> gpus();

  /** The job id, as the monitor shows it. */
  String jobId();

  /** The worker that hosts the actor. */
  String workerId();

  /** Frees the actor's job and resources; pending calls complete first. */
  Future<Void> closeAsync();

  /** Blocking {@link #closeAsync()}. */
  @Override
  void close();
}
