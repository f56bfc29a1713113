package org.parl.internal.resources;

/**
 * What one actor asks for: CPUs, and either whole GPUs or a share of one GPU, with an optional GPU
 * memory budget and GPU model, and a memory limit for its job's process. Made once where the request
 * is stated (the client's builder, or the gateway decoding a client's line) and carried unchanged to
 * the pool: a request that exists is well-formed, and only the cluster's kind may still refuse it.
 *
 * @param cpus CPUs (on a GPU cluster 0; on a mixed cluster also taken by GPU actors)
 * @param gpus whole GPUs, or 0
 * @param gpuShare units of one GPU (1..{@code GpuAmount.UNITS_PER_GPU - 1}) when the actor asks for a
 *     fraction, else 0
 * @param gpuMemoryMb GPU memory budget in MiB on each GPU it gets, or 0 for none; with neither
 *     {@code gpus} nor {@code gpuShare}, a budget alone asks for a place on one GPU (no share)
 * @param gpuModel a substring of the inventory name the GPU must have, or null for any (blank is read
 *     as null, and the name is stripped)
 * @param maxMemoryMb memory limit of the job's process tree in MiB, or 0 for none
 * @throws IllegalArgumentException saying what is wrong: an amount is negative or above its bound, whole
 *     GPUs come with a share, the share is a whole GPU or more, a model comes without an amount of GPU,
 *     the memory limit is too small for a JVM, or the request asks for nothing
 */
public record ResourceRequest(int cpus, int gpus, int gpuShare, long gpuMemoryMb, String gpuModel, int maxMemoryMb) {

  /** Most CPUs, or whole GPUs, one request may name (far above any machine, so that sums cannot overflow). */
  public static final int MAX_COUNT = 1 << 20;

  /** Largest GPU memory budget, in MiB. */
  public static final long MAX_GPU_MEMORY_MB = 1L << 40;

  /** Longest model name a request may carry. */
  public static final int MAX_MODEL = 128;

  /** Smallest memory limit a job's JVM starts with, in MiB. */
  public static final int MIN_MEMORY_MB = 64;

  /** Largest memory limit of a job, in MiB. */
  public static final int MAX_MEMORY_MB = 1 << 24;

  public ResourceRequest {
    if (cpus < 0 || gpus < 0 || gpuShare < 0 || gpuMemoryMb < 0 || maxMemoryMb < 0) {
      throw new IllegalArgumentException("resource amounts must not be negative (cpus=" + cpus + ", gpus=" + gpus
          + ", gpuShare=" + gpuShare + ", gpuMemoryMb=" + gpuMemoryMb + ", maxMemoryMb=" + maxMemoryMb + ")");
    }
    if (cpus > MAX_COUNT || gpus > MAX_COUNT) {
      throw new IllegalArgumentException("a request names at most " + MAX_COUNT + " CPUs and as many GPUs (cpus=" + cpus
          + ", gpus=" + gpus + ")");
    }
    new GpuAmount(gpus, gpuShare); // whole GPUs or a share below one GPU, not both
    if (gpuMemoryMb > MAX_GPU_MEMORY_MB) {
      throw new IllegalArgumentException("gpuMemoryMb is at most " + MAX_GPU_MEMORY_MB + ", not " + gpuMemoryMb);
    }
    gpuModel = gpuModel == null || gpuModel.isBlank() ? null : gpuModel.strip();
    if (gpuModel != null && gpuModel.length() > MAX_MODEL) {
      throw new IllegalArgumentException("gpuModel has " + gpuModel.length() + " characters, at most " + MAX_MODEL + " allowed");
    }
    if (gpuModel != null && !wantsGpu(gpus, gpuShare, gpuMemoryMb)) {
      throw new IllegalArgumentException("a GPU model says which GPU an actor wants, not how much of one: ask for GPUs "
          + "with it, e.g. .gpus(1).gpuModel(\"" + gpuModel + "\") or @RemoteClass(gpus = 1, gpuModel = \"" + gpuModel + "\")");
    }
    if (maxMemoryMb > 0 && maxMemoryMb < MIN_MEMORY_MB) {
      throw new IllegalArgumentException("maxMemoryMb=" + maxMemoryMb + " is too small for a JVM: give at least " + MIN_MEMORY_MB);
    }
    if (maxMemoryMb > MAX_MEMORY_MB) {
      throw new IllegalArgumentException("maxMemoryMb is at most " + MAX_MEMORY_MB + ", not " + maxMemoryMb);
    }
    if (cpus == 0 && !wantsGpu(gpus, gpuShare, gpuMemoryMb)) {
      throw new IllegalArgumentException("a request must ask for at least one CPU or some GPU");
    }
  }

  /** CPUs and whole GPUs, or a share, with a GPU memory budget and model and no memory limit. */
  public ResourceRequest(int cpus, int gpus, int gpuShare, long gpuMemoryMb, String gpuModel) {
    this(cpus, gpus, gpuShare, gpuMemoryMb, gpuModel, 0);
  }

  /** CPUs and whole GPUs, with no share, budget, model or memory limit. */
  public ResourceRequest(int cpus, int gpus) {
    this(cpus, gpus, 0, 0, null, 0);
  }

  /**
   * A request as a builder states it: the GPU amount as users write it ({@code 0.25}, {@code 2}).
   *
   * @throws IllegalArgumentException as the record does, or when {@code gpus} is no exact GPU amount
   */
  public static ResourceRequest of(int cpus, double gpus, long gpuMemoryMb, String gpuModel, int maxMemoryMb) {
    GpuAmount amount = GpuAmount.of(gpus);
    return new ResourceRequest(cpus, amount.gpus(), amount.share(), gpuMemoryMb, gpuModel, maxMemoryMb);
  }

  private static boolean wantsGpu(int gpus, int share, long memoryMb) {
    return gpus > 0 || share > 0 || memoryMb > 0;
  }

  public static ResourceRequest ofCpus(int cpus) {
    return new ResourceRequest(cpus, 0);
  }

  public static ResourceRequest ofGpus(int gpus) {
    return new ResourceRequest(0, gpus);
  }

  /** The same request with {@code n} CPUs (a GPU cluster's actors take none). */
  public ResourceRequest withCpus(int n) {
    return new ResourceRequest(n, gpus, gpuShare, gpuMemoryMb, gpuModel, maxMemoryMb);
  }

  /** The same request with a memory limit for the job's process tree. */
  public ResourceRequest withMaxMemoryMb(int mb) {
    return new ResourceRequest(cpus, gpus, gpuShare, gpuMemoryMb, gpuModel, mb);
  }

  /** The GPU it asks for: whole GPUs, a share, or none. */
  public GpuAmount gpuAmount() {
    return new GpuAmount(gpus, gpuShare);
  }

  /** True when the request needs a GPU: whole GPUs, a share, or a memory budget. */
  public boolean wantsGpu() {
    return wantsGpu(gpus, gpuShare, gpuMemoryMb);
  }

  /** GPUs it places on: its whole GPUs, or 1 for a share or a budget alone. */
  public int gpuCount() {
    return gpus > 0 ? gpus : wantsGpu() ? 1 : 0;
  }

  /** The request in words: "2 GPUs", "0.25 of a GPU with 512 MiB of GPU memory (model A100) and 1 CPU". */
  @Override
  public String toString() {
    return words(false);
  }

  /**
   * The request as what it waits for, in the words of a timed-out create: "2 vacant GPU(s)", "0.25 of a
   * vacant GPU with 512 MiB of GPU memory and model A100 and 1 vacant CPU(s)".
   */
  public String vacantWords() {
    return words(true);
  }

  /** The GPU part of the request in words: "2 GPU(s)", "0.25 of a GPU", "4096 MiB of GPU memory"; "" for none. */
  public String gpuWords() {
    if (gpus > 0) {
      return gpus + " GPU(s)";
    }
    if (gpuShare > 0) {
      return GpuAmount.shareText(gpuShare) + " of a GPU";
    }
    return gpuMemoryMb > 0 ? gpuMemoryMb + " MiB of GPU memory" : "";
  }

  private String words(boolean vacant) {
    StringBuilder s = new StringBuilder();
    if (gpus > 0) {
      s.append(vacant ? gpus + " vacant GPU(s)" : gpuAmount().toString());
    } else if (gpuShare > 0) {
      s.append(GpuAmount.shareText(gpuShare)).append(vacant ? " of a vacant GPU" : " of a GPU");
    } else if (gpuMemoryMb > 0) {
      s.append(vacant ? "room on a GPU" : "a place on a GPU");
    }
    if (gpuMemoryMb > 0) {
      s.append(" with ").append(gpuMemoryMb).append(" MiB of GPU memory");
    }
    if (gpuModel != null) {
      s.append(s.length() == 0 ? "" : vacant ? " and " : " ").append(vacant ? "model " + gpuModel : "(model " + gpuModel + ")");
    }
    if (cpus > 0) {
      s.append(s.length() > 0 ? " and " : "").append(vacant ? cpus + " vacant CPU(s)" : cpus + (cpus == 1 ? " CPU" : " CPUs"));
    }
    return s.toString();
  }
}
