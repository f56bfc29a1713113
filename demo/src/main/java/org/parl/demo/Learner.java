package org.parl.demo;

/** The remote API of the demo's actor: a toy learner that estimates pi by sampling. */
public interface Learner {

  /** Draws {@code samples} random points and returns the running estimate of pi. */
  double sample(int samples);

  /** Where the actor runs: host, process id and the GPUs it sees. */
  String whereAmI();

  /**
   * What the GPU identity check of this actor's job process found: {@code passed: ...},
   * {@code skipped: ...}, or that none ran (a CPU actor).
   */
  String gpuIdentity();
}
