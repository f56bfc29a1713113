package org.parl.it;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * How a cluster test waits: it polls an observable condition until it holds, and fails with what it
 * last saw when a deadline passes. The one place in the cluster tests that sleeps (between polls);
 * a test never sleeps for a fixed time, least of all before asserting that something did not happen:
 * it waits for the event that proves the thing could have happened (config/checkstyle.xml checks it).
 */
public final class Await {

  private static final long POLL_MS = 20;

  private Await() {}

  /**
   * Polls {@code probe} until {@code done} accepts its value and returns that value; an exception or
   * an assertion error from the probe ends the wait at once.
   */
  public static <T> T until(String what, Duration timeout, Callable<T> probe, Predicate<? super T> done) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      T value = probe.call();
      if (done.test(value)) {
        return value;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError(what + " did not happen within " + timeout + "; last seen: " + value);
      }
      TimeUnit.MILLISECONDS.sleep(POLL_MS);
    }
  }

  /** Polls {@code condition} until it is true. */
  public static void until(String what, Duration timeout, Callable<Boolean> condition) throws Exception {
    until(what, timeout, condition, Boolean.TRUE::equals);
  }

  /** Waits until a process has exited (a pid that is gone counts as exited). */
  public static void exited(long pid, Duration timeout, String what) throws Exception {
    until(what, timeout, () -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
  }
}
