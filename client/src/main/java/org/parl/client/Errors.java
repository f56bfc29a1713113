package org.parl.client;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
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
import org.parl.wire.ErrorKind;

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
   * The JSON body of a job's ERROR frame: {@code kind} (an {@link ErrorKind} name), {@code message},
   * and for {@link ErrorKind#REMOTE} the remote exception's class, message and stack.
   */
  static ParlException fromJob(JsonObject err) {
    String message = err.getString("message", "no reason given");
    ErrorKind kind = ErrorKind.ofName(err.getString("kind", ""));
    if (kind == ErrorKind.REMOTE) {
      return new RemoteException(message, err.getString("exception", "?"), err.getString("exceptionMessage"),
          stack(err.getJsonArray("stack", new JsonArray())));
    }
    return of(kind, message);
  }

  private static List<StackTraceElement> stack(JsonArray frames) {
    List<StackTraceElement> out = new ArrayList<>();
    for (Object o : frames) {
      if (o instanceof JsonObject f) {
        out.add(new StackTraceElement(f.getString("class", "?"), f.getString("method", "?"),
            f.getString("file"), f.getInteger("line", -1)));
      }
    }
    return out;
  }
}
