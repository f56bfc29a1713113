package org.parl.cluster;

import io.vertx.core.Future;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;

/**
 * The kinds of failure a node answers with, as event-bus failure codes. Clients turn each kind
 * into the matching exception of the public API ({@code org.parl.*Exception}).
 */
public enum Failure {
  /** Malformed or impossible request: {@code InvalidRequestException}. */
  INVALID(400),
  /** Unknown job, worker or client. */
  NOT_FOUND(404),
  /** GPU request on a CPU cluster or the reverse: {@code ClusterMismatchException}. */
  MISMATCH(409),
  /** The job, its worker or the master is gone: {@code ActorLostException}. */
  LOST(410),
  /** Nothing internal should reach a user, but if it does it says so. */
  INTERNAL(500),
  /** No resources within the timeout: {@code ResourceException}. */
  RESOURCE(503);

  private final int code;

  Failure(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  public ReplyException exception(String message) {
    return new ReplyException(ReplyFailure.RECIPIENT_FAILURE, code, message);
  }

  public <T> Future<T> future(String message) {
    return Future.failedFuture(exception(message));
  }

  /** The kind of a failure code, {@link #INTERNAL} when it is not one of ours. */
  public static Failure of(int code) {
    for (Failure f : values()) {
      if (f.code == code) {
        return f;
      }
    }
    return INTERNAL;
  }

  /** The kind of any failure: reply failures keep theirs, timeouts and lost peers become LOST. */
  public static Failure of(Throwable t) {
    if (t instanceof ReplyException re) {
      return re.failureType() == ReplyFailure.RECIPIENT_FAILURE ? of(re.failureCode()) : LOST;
    }
    if (t instanceof BadMessageException) {
      return INVALID;
    }
    return INTERNAL;
  }
}
