package org.parl;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Default resources of an actor class, like PARL's {@code @parl.remote_class(n_gpu=, max_memory=, wait=)}.
 * {@link ActorBuilder} methods override them per actor.
 *
 * <pre>{@code
 * @RemoteClass(gpus = 1, maxMemoryMb = 512)
 * public class Learner implements Policy { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface RemoteClass {

  /**
   * GPUs the actor needs, on a GPU or mixed cluster (0 means a CPU actor): a whole number, or a
   * share of one GPU in thousandths, such as {@code 0.25} (see {@link ActorBuilder#gpus(double)}).
   */
  double gpus() default 0;

  /** GPU memory budget in MiB on each of its GPUs; 0 means none (see {@link ActorBuilder#gpuMemoryMb}). */
  long gpuMemoryMb() default 0;

  /** A text the GPU's inventory name must contain, such as {@code "A100"}; empty means any GPU. */
  String gpuModel() default "";

  /** CPUs the actor needs, on a CPU cluster (on a mixed cluster, also a GPU actor's own CPUs). */
  int cpus() default 1;

  /** Memory limit of the actor's process in MiB (heap limit and resident memory); 0 means none. */
  int maxMemoryMb() default 0;

  /**
   * Whether creation waits for resources (up to {@link ConnectOptions#getResourceWaitTimeout()})
   * instead of failing at once when none are vacant.
   */
  boolean waitForResources() default true;

  /**
   * Whether a request no worker of the cluster could ever hold waits for a worker that may join
   * (see {@link ActorBuilder#waitForWorkers}).
   */
  boolean waitForWorkers() default false;
}
