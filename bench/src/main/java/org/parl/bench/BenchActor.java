package org.parl.bench;

/**
 * The remote interface {@code parl bench} calls. It lives in the parl jar, so jobs already have it;
 * a user's actor would ship with the user's own code instead.
 */
public interface BenchActor {

  /** Does nothing: the round trip of an empty call. */
  void noop();

  /** Adds {@code x} to a running total and returns it: the round trip of a small call. */
  int add(int x);

  /** Returns its argument: array transfer both ways. */
  float[] echo(float[] data);

  /** The id of the job process that hosts it, so that the bench can pin it to a CPU. */
  long pid();
}
