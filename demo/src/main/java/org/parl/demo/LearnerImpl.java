package org.parl.demo;

import java.util.SplittableRandom;

/** The demo actor; it runs in its own job process, like any user class. */
public class LearnerImpl implements Learner {

  private final SplittableRandom random = new SplittableRandom();
  private long inside;
  private long total;

  @Override
  public double sample(int samples) {
    for (int i = 0; i < samples; i++) {
      double x = random.nextDouble();
      double y = random.nextDouble();
      if (x * x + y * y <= 1) {
        inside++;
      }
    }
    total += samples;
    return 4.0 * inside / total;
  }

  @Override
  public String whereAmI() {
    String gpus = System.getenv("CUDA_VISIBLE_DEVICES");
    return "pid " + ProcessHandle.current().pid() + ", CUDA_VISIBLE_DEVICES=\"" + (gpus == null ? "" : gpus) + "\"";
  }

  @Override
  public String gpuIdentity() {
    // set by the job process (org.parl.job.GpuIdentityCheck) before this actor was constructed
    return System.getProperty("parl.gpu.identity", "no check ran (no GPU, or no UUIDs known for it)");
  }
}
