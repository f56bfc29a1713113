package org.parl.internal.wire;

import java.io.IOException;

/** A frame whose announced length is impossible or over the limit: the peer is broken or hostile. */
public final class BadFrameException extends IOException {

  private static final long serialVersionUID = 1L;

  public BadFrameException(String message) {
    super(message);
  }
}
