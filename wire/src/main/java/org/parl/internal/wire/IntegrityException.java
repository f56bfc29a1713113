package org.parl.internal.wire;

import java.io.IOException;

/**
 * A sealed record of the data path that failed its check ({@link SealedInput}): a byte was
 * altered, or a record was injected, replayed, reordered or cut short by something on the way.
 * The connection it came on is closed.
 */
public final class IntegrityException extends IOException {

  private static final long serialVersionUID = 1L;

  /** How every such failure is described, so that one log line says what happened. */
  public static final String FAILED = "a frame failed its integrity check (altered, injected, replayed or reordered "
      + "on the way): the connection is closed";

  public IntegrityException(String detail) {
    super(FAILED + " [" + detail + "]");
  }
}
