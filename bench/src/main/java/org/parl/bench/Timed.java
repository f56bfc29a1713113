package org.parl.bench;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

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

  /** One blocking round trip of caller {@code i}. */
  @FunctionalInterface
  interface Caller {
    void call(int i) throws Exception;
  }

  /** {@code n} threads, each calling in a loop for {@code ms}: how many calls completed in that time. */
  static long countCalls(int n, Caller caller, long ms) throws Exception {
    AtomicLong counted = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch ready = new CountDownLatch(n);
    CountDownLatch go = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(n);
    long[] until = new long[1];
    for (int i = 0; i < n; i++) {
      int mine = i;
      Thread t = new Thread(() -> {
        try {
          ready.countDown();
          go.await();
          long calls = 0;
          while (true) {
            caller.call(mine);
            if (System.nanoTime() >= until[0]) {
              break;
            }
            calls++;
          }
          counted.addAndGet(calls);
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        } finally {
          done.countDown();
        }
      }, "bench-caller-" + i);
      t.setDaemon(true);
      t.start();
    }
    ready.await();
    until[0] = System.nanoTime() + ms * 1_000_000;
    go.countDown();
    done.await();
    if (failure.get() != null) {
      throw new IllegalStateException("a caller failed: " + failure.get(), failure.get());
    }
    return counted.get();
  }
}
