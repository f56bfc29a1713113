package org.parl.master;

import org.parl.cluster.Failure;

/** A request the JobCenter refuses, with the kind of failure its sender gets and why. */
public final class Rejected extends RuntimeException {

  private final Failure kind;

  public Rejected(Failure kind, String message) {
    super(message, null, false, false);
    this.kind = kind;
  }

  public Failure kind() {
    return kind;
  }
}
