package org.parl.job;

import java.io.IOException;

/**
 * Whether the heap of this job holds a payload its client announces (docs/contract.md §5, §8). Allocating one
 * that it does not would end the process with an {@link OutOfMemoryError} that its worker could
 * only blame on the actor's memory limit, though the actor's code used none of it. A payload needs
 * its bytes and about as much again for the values decoded from them.
 */
final class PayloadRoom {

  private PayloadRoom() {}

  /** @throws Refused when {@code length} bytes, and their decoded values, do not fit in the free heap */
  static void check(int length) throws Refused {
    if (!fits(2L * length)) {
      throw new Refused(length, free(), Runtime.getRuntime().maxMemory());
    }
  }

  /**
   * Checks an array that lies in memory shared with the client before it is made: only the array
   * itself needs room (its bytes are not in the heap). The call fails; the job goes on.
   *
   * @throws IOException when the array does not fit in the free heap
   */
  static void checkShared(int length) throws IOException {
    if (!fits(length)) {
      throw new IOException("an array of " + Refused.mib(length) + " does not fit in the job's heap (" + Refused.mib(free())
          + " free of " + Refused.mib(Runtime.getRuntime().maxMemory()) + "): send less per call");
    }
  }

  /** Whether {@code need} bytes fit in the free heap, after a collection when they do not at once. */
  private static boolean fits(long need) {
    if (need <= free()) {
      return true;
    }
    System.gc(); // what counts as used may be garbage; a payload this large is rare enough to pay for a collection
    return need <= free();
  }

  /** Bytes the heap can still grow by: its maximum less what it uses now. */
  static long free() {
    Runtime r = Runtime.getRuntime();
    return r.maxMemory() - (r.totalMemory() - r.freeMemory());
  }

  /** A payload the job cannot hold: it stops, with this message as its cause. */
  static final class Refused extends IOException {
    private static final long serialVersionUID = 1L;

    Refused(int length, long free, long max) {
      super("its client sent a payload of " + mib(length) + " that the job's heap cannot hold with its decoded values ("
          + mib(free) + " free of " + mib(max) + "), so the job stopped instead of running out of memory: send less per call");
    }

    static String mib(long bytes) {
      return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }
  }
}
