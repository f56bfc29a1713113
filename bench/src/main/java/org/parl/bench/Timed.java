package org.parl.bench;

/** Runs operations and records how long each took. */
final class Timed {

  /** One measured operation. */
  @FunctionalInterface
  interface Op {
    void run() throws Exception;
  }

  private Timed() {}

  static void repeat(Op op, int times) throws Exception {
    for (int i = 0; i < times; i++) {
      op.run();
    }
  }

  /** Runs {@code op} at least {@code times} times and for at least {@code millis} ms (a warm-up to steady state). */
  static void repeatFor(Op op, int times, long millis) throws Exception {
    long end = System.nanoTime() + millis * 1_000_000;
    for (int i = 0; i < times || System.nanoTime() < end; i++) {
      op.run();
    }
  }

  static void record(Op op, int times, Samples into) throws Exception {
    for (int i = 0; i < times; i++) {
      long t0 = System.nanoTime();
      op.run();
      into.add(System.nanoTime() - t0);
    }
  }

  /**
   * Measures two operations in alternating blocks, so that both see the same background load
   * (other builds on a shared machine): the ratio of their percentiles is then meaningful.
   */
  static void interleave(int rounds, int perRound, Op a, Samples intoA, Op b, Samples intoB) throws Exception {
    for (int r = 0; r < rounds; r++) {
      record(a, perRound, intoA);
      record(b, perRound, intoB);
    }
  }
}
