package org.parl.wire.gateway;

import org.parl.wire.Checks;

/**
 * What an actor asks for, as its builder stated it: built once by the client and carried unchanged
 * by the gateway's {@code Create} and the JobCenter's {@code Allocate}. Amounts are taken as given
 * (negative ones included, within bounds) so that the JobCenter answers each wrong amount with its
 * own message.
 *
 * @param cpus CPUs (a CPU actor's, or a GPU actor's own on a mixed cluster)
 * @param gpus whole GPUs, or 0
 * @param gpuShare thousandths of one GPU when the actor asks for a fraction, else 0
 * @param gpuMemoryMb GPU memory budget in MiB on each of its GPUs, or 0 for none
 * @param gpuModel a substring of the GPU's inventory name, or null for any model
 * @param maxMemoryMb memory limit of the job's process tree in MiB, or 0 for none
 */
public record ActorResources(int cpus, int gpus, int gpuShare, long gpuMemoryMb, String gpuModel, int maxMemoryMb) {

  /** Longest model name a request may carry. */
  public static final int MAX_MODEL = 128;

  public ActorResources {
    Checks.range("cpus", cpus, -(1 << 20), 1 << 20);
    Checks.range("gpus", gpus, -(1 << 20), 1 << 20);
    Checks.range("gpuShare", gpuShare, -(1 << 20), 1 << 20);
    Checks.range("gpuMemoryMb", gpuMemoryMb, -(1L << 40), 1L << 40);
    gpuModel = Checks.text("gpuModel", gpuModel == null || gpuModel.isBlank() ? null : gpuModel.strip(), MAX_MODEL);
    Checks.range("maxMemoryMb", maxMemoryMb, 0, 1 << 24);
  }

  /** CPUs only, as PARL's CPU clusters ask. */
  public static ActorResources cpus(int cpus) {
    return new ActorResources(cpus, 0, 0, 0, null, 0);
  }

  /** Whole GPUs only, as PARL's GPU clusters ask. */
  public static ActorResources gpus(int gpus) {
    return new ActorResources(0, gpus, 0, 0, null, 0);
  }

  /** The same resources with a memory limit for the job's process tree. */
  public ActorResources withMaxMemoryMb(int mb) {
    return new ActorResources(cpus, gpus, gpuShare, gpuMemoryMb, gpuModel, mb);
  }

  /** True when it asks for any GPU: whole ones, a share, or a memory budget. */
  public boolean wantsGpu() {
    return gpus != 0 || gpuShare != 0 || gpuMemoryMb != 0 || gpuModel != null;
  }
}
