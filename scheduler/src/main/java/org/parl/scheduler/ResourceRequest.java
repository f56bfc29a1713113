package org.parl.scheduler;

/**
 * What one actor asks for: CPUs, and either whole GPUs or a share of one GPU, with an optional
 * GPU memory budget and GPU model.
 *
 * <p>GPU shares are counted in integer units ({@link #UNITS_PER_GPU} to a GPU), never in floating
 * point, so that shares add up exactly. Amounts are validated here so that every component that
 * receives a request (the JobCenter, the pool, tests) sees only well-formed ones.
 *
 * @param cpus CPUs (on a GPU cluster 0; on a mixed cluster also taken by GPU actors)
 * @param gpus whole GPUs, or 0
 * @param gpuShare units of one GPU (1..{@code UNITS_PER_GPU - 1}) when the actor asks for a fraction, else 0
 * @param gpuMemoryMb GPU memory budget in MiB on each GPU it gets, or 0 for none; with neither
 *     {@code gpus} nor {@code gpuShare}, a budget alone asks for a place on one GPU (no share)
 * @param gpuModel a substring of the inventory name the GPU must have, or null for any (blank, or on a
 *     CPU-only request, is read as null)
 * @throws IllegalArgumentException if an amount is negative, whole GPUs come with a share, the share is a
 *     whole GPU or more, or the request asks for nothing
 */
public record ResourceRequest(int cpus, int gpus, int gpuShare, long gpuMemoryMb, String gpuModel) {

  /** Units in one GPU: a share is a whole number of thousandths. */
  public static final int UNITS_PER_GPU = 1000;

  public ResourceRequest {
    if (cpus < 0 || gpus < 0 || gpuShare < 0 || gpuMemoryMb < 0) {
      throw new IllegalArgumentException("resource amounts must not be negative (cpus=" + cpus + ", gpus=" + gpus
          + ", gpuShare=" + gpuShare + ", gpuMemoryMb=" + gpuMemoryMb + ")");
    }
    if (gpus > 0 && gpuShare > 0) {
      throw new IllegalArgumentException("a request asks for whole GPUs or a share of one, not both");
    }
    if (gpuShare >= UNITS_PER_GPU) {
      throw new IllegalArgumentException("a GPU share is below one GPU (" + gpuShare + " of " + UNITS_PER_GPU + " units)");
    }
    if (gpuModel != null && (gpuModel.isBlank() || !wantsGpu(gpus, gpuShare, gpuMemoryMb))) {
      gpuModel = null; // a model means nothing to a CPU-only request
    }
    if (cpus == 0 && !wantsGpu(gpus, gpuShare, gpuMemoryMb)) {
      throw new IllegalArgumentException("a request must ask for at least one CPU or some GPU");
    }
  }

  /** CPUs and whole GPUs, with no share, budget or model. */
  public ResourceRequest(int cpus, int gpus) {
    this(cpus, gpus, 0, 0, null);
  }

  private static boolean wantsGpu(int gpus, int share, long memoryMb) {
    return gpus > 0 || share > 0 || memoryMb > 0;
  }

  public static ResourceRequest ofCpus(int cpus) {
    return new ResourceRequest(cpus, 0, 0, 0, null);
  }

  public static ResourceRequest ofGpus(int gpus) {
    return new ResourceRequest(0, gpus, 0, 0, null);
  }

  /** True when the request needs a GPU: whole GPUs, a share, or a memory budget. */
  public boolean wantsGpu() {
    return wantsGpu(gpus, gpuShare, gpuMemoryMb);
  }

  /** GPUs it places on: its whole GPUs, or 1 for a share or a budget alone. */
  public int gpuCount() {
    return gpus > 0 ? gpus : wantsGpu() ? 1 : 0;
  }

  /**
   * The units of a fractional GPU amount, exactly.
   *
   * @param gpus a GPU amount as users write it ({@code 0.25}, {@code 2})
   * @return the whole GPUs and the share units, exactly one of them non-zero (both zero for 0)
   * @throws IllegalArgumentException saying why when the amount is negative, not finite, not a whole
   *     number of units, or above 1 and not whole
   */
  public static int[] split(double gpus) {
    if (!Double.isFinite(gpus) || gpus < 0) {
      throw new IllegalArgumentException("a GPU amount must be a finite number of at least 0, not " + gpus);
    }
    if (gpus >= 1) {
      if (gpus != Math.rint(gpus) || gpus > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("a GPU amount above 1 must be whole (" + gpus
            + " asked): a share never spans two GPUs");
      }
      return new int[] {(int) gpus, 0};
    }
    double units = gpus * UNITS_PER_GPU;
    long rounded = Math.round(units);
    if (Math.abs(units - rounded) > 1e-6) {
      throw new IllegalArgumentException("a GPU share must be a whole number of 1/" + UNITS_PER_GPU
          + " of a GPU, and " + gpus + " is not");
    }
    return new int[] {0, (int) rounded};
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

  private String words(boolean vacant) {
    StringBuilder s = new StringBuilder();
    if (gpus > 0) {
      s.append(vacant ? gpus + " vacant GPU(s)" : Texts.count(gpus, "GPU"));
    } else if (gpuShare > 0) {
      s.append(shareText(gpuShare)).append(vacant ? " of a vacant GPU" : " of a GPU");
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
      s.append(s.length() > 0 ? " and " : "").append(vacant ? cpus + " vacant CPU(s)" : Texts.count(cpus, "CPU"));
    }
    return s.toString();
  }

  /** A share as users write it: 250 units is "0.25". */
  public static String shareText(int units) {
    return java.math.BigDecimal.valueOf(units, 3).stripTrailingZeros().toPlainString();
  }
}
