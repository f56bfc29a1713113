package org.parl.internal.wire;

/**
 * A message from another node or a client that is malformed; its sender gets this text. Thrown by
 * the compact constructors of the typed messages (and so by their decoders), without a stack trace:
 * it is an expected condition, not a bug.
 */
public final class BadMessageException extends RuntimeException {

  public BadMessageException(String message) {
    super(message, null, false, false);
  }
}
