package org.parl.it.hosts;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A part of the machine a test needs (a Debian package, root, a daemon). Where it is missing the
 * test is skipped with the reason, except under {@code PARL_TESTS_REQUIRE_ALL=1}, which {@code bin/test}
 * sets after installing everything: there a missing part fails the test, naming it, so that CI never
 * passes with tests that did not run.
 */
public final class Required {

  static final String VARIABLE = "PARL_TESTS_REQUIRE_ALL";

  private Required() {}

  /**
   * @param present whether the part is here
   * @param what the part and how to get it, e.g. "Slurm (bin/setup-slurm installs it)"
   */
  public static void that(boolean present, String what) {
    if (!present) {
      missing(what);
    }
  }

  /** Skips or fails the calling test for a part that is missing (see the class comment); never returns. */
  public static void missing(String what) {
    if ("1".equals(System.getenv(VARIABLE))) {
      Assertions.fail("missing: " + what + " (" + VARIABLE + "=1: bin/test installs every part a test needs)");
    }
    Assumptions.abort("missing: " + what);
  }
}
