package org.parl;

import io.vertx.core.Future;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A handle on a remote actor. Calls made through it are pipelined on one connection to the
 * actor's process and run there one at a time, in the order they were made.
 *
 * <p>A call's future fails with {@link RemoteException} when the method threw, with
 * {@link ActorLostException} as soon as the actor's job, its worker or the master is gone (also
 * for calls made afterwards; {@link GpuFaultException}, a kind of it, when the JobCenter stopped the
 * job because a GPU it held turned faulty), and with {@link CallTimeoutException} when a call timeout is set
 * ({@link ConnectOptions#setCallTimeout}, {@link #withTimeout}) and passes; the blocking proxy
 * throws the same exceptions.
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

  /**
   * The same actor with another call timeout: every call, field access and blocking proxy call made
   * through the returned handle fails with {@link CallTimeoutException} when its answer has not come
   * within {@code timeout} of the call (like gRPC's {@code withDeadlineAfter}, or Ray's
   * {@code ray.get(ref, timeout=...)}). The actor stays usable after a timeout: the call may still
   * run, and its late answer is dropped. Both handles share the actor; closing either closes it.
   *
   * <pre>{@code
   * Counter quick = actor.withTimeout(Duration.ofSeconds(2)).proxy();
   * quick.add(1);                       // throws CallTimeoutException after 2 s without an answer
   * }</pre>
   *
   * @param timeout a positive duration, or null for no timeout (even if {@link ConnectOptions} sets one)
   * @throws IllegalArgumentException if {@code timeout} is zero or negative
   */
  RemoteActor<T> withTimeout(Duration timeout);

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
