package org.parl.internal.resources;

import java.math.BigDecimal;

/**
 * An amount of GPU as an actor asks for it: whole GPUs, or a share of one GPU counted in integer units
 * ({@link #UNITS_PER_GPU} to a GPU), never in floating point, so that shares on a GPU add up exactly.
 *
 * @param gpus whole GPUs, or 0
 * @param share units of one GPU (1..{@code UNITS_PER_GPU - 1}) for a fraction, else 0
 * @throws IllegalArgumentException if an amount is negative, whole GPUs come with a share, or the share
 *     is a whole GPU or more
 */
public record GpuAmount(int gpus, int share) {

  /** Units in one GPU: a share is a whole number of thousandths. */
  public static final int UNITS_PER_GPU = 1000;

  public GpuAmount {
    if (gpus < 0 || share < 0) {
      throw new IllegalArgumentException("a GPU amount must not be negative (gpus=" + gpus + ", gpuShare=" + share + ")");
    }
    if (gpus > 0 && share > 0) {
      throw new IllegalArgumentException("an actor asks for whole GPUs or a share of one, not both ("
          + gpus + " GPU(s) and " + shareText(share) + ")");
    }
    checkShare(share);
  }

  /**
   * The exact amount of a GPU count as users write it.
   *
   * @param gpus a GPU amount ({@code 0.25}, {@code 2})
   * @throws IllegalArgumentException saying why when the amount is negative, not finite, not a whole
   *     number of units, or above 1 and not whole
   */
  public static GpuAmount of(double gpus) {
    if (!Double.isFinite(gpus) || gpus < 0) {
      throw new IllegalArgumentException("a GPU amount must be a finite number of at least 0, not " + gpus);
    }
    if (gpus >= 1) {
      if (gpus != Math.rint(gpus) || gpus > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("a GPU amount above 1 must be whole (" + gpus
            + " asked): a share never spans two GPUs");
      }
      return new GpuAmount((int) gpus, 0);
    }
    double units = gpus * UNITS_PER_GPU;
    long rounded = Math.round(units);
    if (Math.abs(units - rounded) > 1e-6) {
      throw new IllegalArgumentException("a GPU share must be a whole number of 1/" + UNITS_PER_GPU
          + " of a GPU, and " + gpus + " is not");
    }
    return new GpuAmount(0, (int) rounded);
  }

  /**
   * Checks the share of one GPU that a request asks for.
   *
   * @throws IllegalArgumentException unless {@code units} is 0 (no share) or below one GPU
   */
  static void checkShare(int units) {
    if (units < 0 || units >= UNITS_PER_GPU) {
      throw new IllegalArgumentException("a GPU share is between 1 and " + (UNITS_PER_GPU - 1)
          + " thousandths of one GPU, not " + units);
    }
  }

  /** The amount as users write it: "2 GPUs", "1 GPU", "0.25 GPU", "0 GPUs". */
  @Override
  public String toString() {
    if (share > 0) {
      return shareText(share) + " GPU";
    }
    return gpus + (gpus == 1 ? " GPU" : " GPUs");
  }

  /** A share as users write it: 250 units is "0.25". */
  public static String shareText(int units) {
    return BigDecimal.valueOf(units).divide(BigDecimal.valueOf(UNITS_PER_GPU)).stripTrailingZeros().toPlainString();
  }
}
