package org.parl.it.hosts;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** A missing part skips a test when run by hand, and fails it under bin/test, naming the part. */
class RequiredIT {

  @Test
  void aMissingPartFailsUnderBinTestAndSkipsElsewhere() {
    Throwable t = assertThrows(Throwable.class, () -> Required.that(false, "Slurm (bin/setup-slurm installs it)"));
    boolean all = "1".equals(System.getenv(Required.VARIABLE));
    Class<? extends Throwable> expected = all ? AssertionFailedError.class : TestAbortedException.class;
    assertInstanceOf(expected, t, "with " + Required.VARIABLE + (all ? "=1" : " unset"));
    assertTrue(t.getMessage().startsWith("missing: Slurm (bin/setup-slurm installs it)"), t.getMessage());
    assertDoesNotThrow(() -> Required.that(true, "Slurm"));
  }
}
