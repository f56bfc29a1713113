package org.parl.control;

import io.vertx.core.Future;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import org.parl.internal.wire.BadMessageException;
import org.parl.internal.wire.ErrorKind;

/** {@link ErrorKind}s on the event bus, where a failure's kind travels as its {@link ErrorKind#code()}. */
public final class Failures {

  private Failures() {}

  /** A failure the receiver of a request answers with. */
  public static ReplyException exception(ErrorKind kind, String message) {
    return new ReplyException(ReplyFailure.RECIPIENT_FAILURE, kind.code(), message);
  }

  public static <T> Future<T> future(ErrorKind kind, String message) {
    return Future.failedFuture(exception(kind, message));
  }

  /**
   * The kind of any failure: answers keep theirs; a timeout, a missing handler or a lost peer
   * means the other side is gone ({@link ErrorKind#LOST}); a bad message is
   * {@link ErrorKind#INVALID}; anything else is a bug ({@link ErrorKind#INTERNAL}).
   */
  public static ErrorKind kindOf(Throwable t) {
    if (t instanceof ReplyException re) {
      return re.failureType() == ReplyFailure.RECIPIENT_FAILURE ? ErrorKind.ofCode(re.failureCode()) : ErrorKind.LOST;
    }
    if (t instanceof BadMessageException) {
      return ErrorKind.INVALID;
    }
    return ErrorKind.INTERNAL;
  }
}
