package org.parl;

/**
 * The actor's job was stopped because a GPU it held turned unhealthy (uncorrected ECC errors,
 * pending page retirements or row remaps, a GPU the driver reports lost, or a worker whose GPUs
 * changed under it): the JobCenter quarantined the GPU and stopped the jobs on it (docs/contract.md §11). The
 * actor's pending and later calls fail with it; create a new actor, which is placed on a healthy GPU.
 * The message names the GPU (worker, index, UUID when known) and the fault.
 */
public class GpuFaultException extends ActorLostException {

  private final String workerId;
  private final int gpu;
  private final String uuid;
  private final String fault;

  /**
   * @param uuid the GPU's UUID, or null when the worker did not know it
   * @param fault what is wrong, such as {@code uncorrected volatile ECC errors: 2}
   */
  public GpuFaultException(String message, String workerId, int gpu, String uuid, String fault) {
    super(message);
    this.workerId = workerId;
    this.gpu = gpu;
    this.uuid = uuid;
    this.fault = fault;
  }

  /** The worker whose GPU failed. */
  public String workerId() {
    return workerId;
  }

  /** The failed GPU's index on its worker. */
  public int gpu() {
    return gpu;
  }

  /** The failed GPU's UUID, or null when unknown. */
  public String uuid() {
    return uuid;
  }

  /** What is wrong with the GPU, in words. */
  public String fault() {
    return fault;
  }

  /** The GPU in words: {@code GPU 1 (GPU-...) of worker w-1}. */
  public static String describeGpu(String workerId, int gpu, String uuid) {
    return "GPU " + gpu + (uuid == null || uuid.isEmpty() ? "" : " (" + uuid + ")") + " of worker " + workerId;
  }
}
