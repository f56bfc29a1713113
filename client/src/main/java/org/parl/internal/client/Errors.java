package org.parl.internal.client;

import java.util.List;
import org.parl.ActorLostException;
import org.parl.AuthenticationException;
import org.parl.ClusterMismatchException;
import org.parl.InvalidRequestException;
import org.parl.ParlException;
import org.parl.RemoteAttributeException;
import org.parl.RemoteException;
import org.parl.RemoteSerializationException;
import org.parl.ResourceException;
import org.parl.internal.wire.BadMessageException;
import org.parl.internal.wire.DataMessage;
import org.parl.internal.wire.DataMessageCodec;
import org.parl.internal.wire.ErrorKind;

/**
 * Turns failures reported by the master or a job, each of an {@link ErrorKind}, into the
 * exceptions of the public API.
 */
final class Errors {

  private Errors() {}

  /** The exception of a kind of failure (a gateway's error answer); {@link ErrorKind#REMOTE} without its details. */
  static ParlException of(ErrorKind kind, String message) {
    return switch (kind) {
      case RESOURCE -> new ResourceException(message);
      case MISMATCH -> new ClusterMismatchException(message);
      case INVALID, NOT_FOUND -> new InvalidRequestException(message);
      case UNAUTHENTICATED -> new AuthenticationException(message);
      case LOST -> new ActorLostException(message);
      case REMOTE -> new RemoteException(message, "?", null, List.of());
      case SERIALIZATION -> new RemoteSerializationException(message);
      case ATTRIBUTE -> new RemoteAttributeException(message);
      case INTERNAL -> new ParlException(message);
    };
  }

  /**
   * The body of a job's ERROR frame ({@link DataMessage.Failure}) as the exception of its kind, with
   * the remote exception's class, message and stack for {@link ErrorKind#REMOTE}; a body that cannot
   * be read is a {@link ParlException} that says why.
   */
  static ParlException fromJob(byte[] payload, int length) {
    DataMessage.Failure failure;
    try {
      failure = DataMessageCodec.failure(payload, length);
    } catch (BadMessageException e) {
      return new ParlException("the job reported an error that cannot be read: " + e.getMessage());
    }
    String message = failure.message() == null ? "no reason given" : failure.message();
    if (failure.kind() == ErrorKind.REMOTE) {
      return new RemoteException(message, failure.exception() == null ? "?" : failure.exception(), failure.exceptionMessage(),
          failure.stack().stream().map(f -> new StackTraceElement(f.className(), f.method(), f.file(), f.line())).toList());
    }
    return of(failure.kind(), message);
  }
}
