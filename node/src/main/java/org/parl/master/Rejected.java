package org.parl.master;

import org.parl.internal.wire.ErrorKind;

/** A request the JobCenter refuses, with the kind of failure its sender gets and why. */
public final class Rejected extends RuntimeException {

  private final ErrorKind kind;

  public Rejected(ErrorKind kind, String message) {
    super(message, null, false, false);
    this.kind = kind;
  }

  public ErrorKind kind() {
    return kind;
  }
}
