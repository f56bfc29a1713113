package org.parl.job;

/**
 * A request the actor host could not serve. {@code kind} tells the client which exception to
 * raise: {@code remote} (the user's code threw), {@code serialization}, {@code attribute} (no such
 * field), {@code invalid} (a request that makes no sense).
 */
final class CallFailure extends Exception {

  final String kind;

  CallFailure(String kind, String message, Throwable cause) {
    super(message, cause, false, false);
    this.kind = kind;
  }

  CallFailure(String kind, String message) {
    this(kind, message, null);
  }
}
