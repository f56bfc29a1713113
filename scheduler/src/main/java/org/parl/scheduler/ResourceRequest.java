package org.parl.scheduler;

/**
 * What one actor asks for: a number of CPUs and a number of GPUs.
 *
 * <p>Amounts are validated here so that every component that receives a request (the JobCenter,
 * the pool, tests) sees only well-formed ones.
 */
public record ResourceRequest(int cpus, int gpus) {

  public ResourceRequest {
    if (cpus < 0 || gpus < 0) {
      throw new IllegalArgumentException(
          "resource amounts must not be negative (cpus=" + cpus + ", gpus=" + gpus + ")");
    }
    if (cpus == 0 && gpus == 0) {
      throw new IllegalArgumentException("a request must ask for at least one CPU or one GPU");
    }
  }

  public static ResourceRequest ofCpus(int cpus) {
    return new ResourceRequest(cpus, 0);
  }

  public static ResourceRequest ofGpus(int gpus) {
    return new ResourceRequest(0, gpus);
  }

  @Override
  public String toString() {
    return gpus > 0 ? gpus + " GPU(s)" + (cpus > 0 ? " and " + cpus + " CPU(s)" : "") : cpus + " CPU(s)";
  }
}
