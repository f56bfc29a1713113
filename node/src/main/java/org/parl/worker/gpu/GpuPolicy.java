package org.parl.worker.gpu;

import java.util.Locale;

/**
 * How a worker treats its GPUs beyond lending them: what happens to the jobs on a GPU that turns
 * faulty, and how a job's {@code CUDA_VISIBLE_DEVICES} names its GPUs.
 *
 * @param faults {@code --gpu-faults}: stop the jobs on a faulty GPU (the default) or only warn
 * @param visible {@code --cuda-visible-devices}: GPUs by index (PARL's way, the default) or by UUID
 */
public record GpuPolicy(Faults faults, Visible visible) {

  /** {@code --gpu-faults stop|warn}. */
  public enum Faults {
    /** The jobs on a faulty GPU are stopped; their clients' calls fail with {@code GpuFaultException}. */
    STOP,
    /** The jobs keep running; the master logs one warning. The GPU is quarantined either way. */
    WARN;

    public static Faults parse(String s) {
      return valueOf(s.strip().toUpperCase(Locale.ROOT));
    }
  }

  /** {@code --cuda-visible-devices index|uuid}. */
  public enum Visible {
    /** Whole GPUs by their index ({@code 0,1}); MIG instances by their UUID, the only way CUDA names them. */
    INDEX,
    /** Every unit by its UUID ({@code GPU-...,MIG-...}) where the inventory gives one. */
    UUID;

    public static Visible parse(String s) {
      return valueOf(s.strip().toUpperCase(Locale.ROOT));
    }
  }

  /** Stop the jobs on a faulty GPU; name GPUs by index. */
  public static final GpuPolicy DEFAULT = new GpuPolicy(Faults.STOP, Visible.INDEX);

  public GpuPolicy {
    faults = faults == null ? Faults.STOP : faults;
    visible = visible == null ? Visible.INDEX : visible;
  }

  public boolean stopJobs() {
    return faults == Faults.STOP;
  }

  public boolean byUuid() {
    return visible == Visible.UUID;
  }
}
