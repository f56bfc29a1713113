package org.parl.job;

import org.parl.internal.wire.ErrorKind;

/**
 * A request the actor host could not serve. Its {@link ErrorKind} tells the client which exception
 * to raise: {@code REMOTE} (the user's code threw), {@code SERIALIZATION}, {@code ATTRIBUTE} (no
 * such field, or one that cannot be written), {@code INVALID} (a request that makes no sense).
 */
final class CallFailure extends Exception {

  final ErrorKind kind;

  CallFailure(ErrorKind kind, String message, Throwable cause) {
    super(message, cause, false, false);
    this.kind = kind;
  }

  CallFailure(ErrorKind kind, String message) {
    this(kind, message, null);
  }
}
