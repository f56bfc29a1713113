package org.parl.internal.wire.gateway;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import org.parl.internal.wire.BadMessageException;
import org.parl.internal.wire.TypedJson;

/**
 * Encodes and decodes the lines of the gateway protocol ({@link GatewayRequest} one way,
 * {@link GatewayReply} the other), with every check of the records; see {@link TypedJson}.
 */
public final class GatewayCodec {

  private static final TypedJson JSON = new TypedJson(GatewayRequest.class, GatewayReply.class);

  private GatewayCodec() {}

  /** Prepares every message type (see {@link TypedJson#warmUp()}); blocks for a while in a fresh JVM. */
  public static void warmUp() {
    JSON.warmUp();
  }

  /** One line as UTF-8 JSON, without its newline. */
  public static byte[] encode(GatewayRequest request) {
    return JSON.encode(request);
  }

  public static byte[] encode(GatewayReply reply) {
    return JSON.encode(reply);
  }

  /**
   * A record of this protocol (a reply or one of its parts) as a JSON object, for JSON that leaves the
   * process in the same form: the cluster's description in the cluster map, the masters in the monitor's API.
   */
  public static JsonObject toJson(Object value) {
    return new JsonObject(Buffer.buffer(JSON.encode(value)));
  }

  /** Decodes a request line; a {@link BadMessageException} says what is wrong with it. */
  public static GatewayRequest request(Buffer line) {
    return JSON.decode(line.getBytes(), GatewayRequest.class);
  }

  /** The id of a request line that did not decode, for its error answer; null when it has none. */
  public static Long idOf(Buffer line) {
    try {
      byte[] bytes = line.getBytes();
      return JSON.tree(bytes, 0, bytes.length).get("id") instanceof Long id ? id : null;
    } catch (BadMessageException e) {
      return null;
    }
  }

  public static GatewayReply reply(Buffer line) {
    return JSON.decode(line.getBytes(), GatewayReply.class);
  }
}
