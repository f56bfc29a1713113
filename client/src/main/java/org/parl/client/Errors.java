package org.parl.client;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.parl.ActorLostException;
import org.parl.ClusterMismatchException;
import org.parl.InvalidRequestException;
import org.parl.ParlException;
import org.parl.RemoteAttributeException;
import org.parl.RemoteException;
import org.parl.RemoteSerializationException;
import org.parl.ResourceException;
import org.parl.wire.ErrorKind;

/** Turns failures reported by the master or a job into the exceptions of the public API. */
final class Errors {

  private Errors() {}

  /** A gateway error {@code {kind, message}}; kinds are those of {@code org.parl.cluster.Failure}. */
  static ParlException fromGateway(JsonObject err) {
    String message = err.getString("message", "no reason given");
    return switch (err.getString("kind", "")) {
      case "RESOURCE" -> new ResourceException(message);
      case "MISMATCH" -> new ClusterMismatchException(message);
      case "INVALID", "NOT_FOUND" -> new InvalidRequestException(message);
      case "LOST" -> new ActorLostException(message);
      default -> new ParlException(message);
    };
  }

  /** The JSON body of a job's ERROR frame. */
  static ParlException fromJob(JsonObject err) {
    String message = err.getString("message", "no reason given");
    return switch (ErrorKind.ofName(err.getString("kind", ""))) {
      case REMOTE -> new RemoteException(message, err.getString("exception", "?"),
          err.getString("exceptionMessage"), stack(err.getJsonArray("stack", new JsonArray())));
      case SERIALIZATION -> new RemoteSerializationException(message);
      case ATTRIBUTE -> new RemoteAttributeException(message);
      case INVALID -> new InvalidRequestException(message);
      default -> new ParlException(message);
    };
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
