package org.parl.cluster;

/** A message from another node or a client that is malformed; its sender gets this text. */
public final class BadMessageException extends RuntimeException {

  public BadMessageException(String message) {
    super(message, null, false, false);
  }
}
