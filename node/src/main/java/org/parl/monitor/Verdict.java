package org.parl.monitor;

/**
 * What the monitor makes of a request's credentials: accepted, or why not. The reason is what a
 * refused caller is told and what the monitor logs (it never contains what was presented).
 */
enum Verdict {
  ACCEPTED("accepted"),
  MISSING("this monitor needs the cluster token"),
  MALFORMED_HEADER("the Authorization header is not 'Bearer <token>'"),
  WRONG_TOKEN("wrong cluster token"),
  UNKNOWN_SESSION("unknown session (the monitor may have restarted): log in again"),
  EXPIRED_SESSION("the session has expired: log in again"),
  MALFORMED_CODE("this login link is not valid"),
  FORGED_CODE("this login link was not made for this monitor with this cluster's token"),
  EXPIRED_CODE("this login link has expired"),
  USED_CODE("this login link was already used"),
  STALE_CODE("this login link was made before the monitor last restarted: use the link it printed when it started, "
      + "or enter the token"),
  TOO_MANY_CODES("too many login links were used recently: enter the token instead");

  private final String reason;

  Verdict(String reason) {
    this.reason = reason;
  }

  String reason() {
    return reason;
  }

  boolean accepted() {
    return this == ACCEPTED;
  }

  /** Whether the caller presented a credential that is false, not merely none or a stale one. */
  boolean suspicious() {
    return this == MALFORMED_HEADER || this == WRONG_TOKEN || this == MALFORMED_CODE || this == FORGED_CODE;
  }
}
