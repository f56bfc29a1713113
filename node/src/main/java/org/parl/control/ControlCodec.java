package org.parl.control;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.MessageCodec;
import io.vertx.core.json.JsonObject;
import org.parl.internal.wire.BadMessageException;
import org.parl.internal.wire.TypedJson;
import org.parl.internal.wire.gateway.GatewayRequest;

/**
 * The one event-bus codec of the control plane: a {@link ControlMessage} travels between nodes as
 * a length-prefixed JSON object named by its {@code type}, and is checked as it is decoded (types,
 * ranges, sizes: see the records). Within a node a message is handed over as is: records are
 * immutable.
 *
 * <p>In clustered Vert.x a body is decoded lazily, when the receiver first calls
 * {@code Message.body()}: that call throws {@link BadMessageException} for a bad body, and the
 * {@link Dispatcher} answers it.
 */
public final class ControlCodec implements MessageCodec<ControlMessage, ControlMessage> {

  /** The codec's name on the wire. */
  public static final String NAME = "parl.control";
  /** Largest encoded message (a whole job log is the biggest). */
  public static final int MAX_BODY = 64 << 20;

  /**
   * The messages, and the gateway's requests that an {@code Allocate} and a {@code HoldGroup} carry as the
   * client sent them (named {@code Create} and {@code ReserveGroup}).
   */
  private static final TypedJson JSON = new TypedJson(ControlMessage.class, GatewayRequest.Create.class,
      GatewayRequest.ReserveGroup.class);

  /** Registers the codec on a node's event bus, once, for every {@link ControlMessage}. */
  public static void register(EventBus bus) {
    bus.registerCodec(new ControlCodec());
    bus.codecSelector(body -> body instanceof ControlMessage ? NAME : null);
  }

  /** Prepares every message type (see {@link TypedJson#warmUp()}); blocks for a while in a fresh JVM. */
  public static void warmUp() {
    JSON.warmUp();
  }

  @Override
  public void encodeToWire(Buffer buffer, ControlMessage message) {
    byte[] json = JSON.encode(message);
    buffer.appendInt(json.length).appendBytes(json);
  }

  @Override
  public ControlMessage decodeFromWire(int pos, Buffer buffer) {
    if (pos + 4 > buffer.length()) {
      throw new BadMessageException("truncated control message");
    }
    int length = buffer.getInt(pos);
    if (length < 0 || length > MAX_BODY || length > buffer.length() - pos - 4) {
      throw new BadMessageException("control message of impossible length " + length);
    }
    return JSON.decode(buffer.getBytes(pos + 4, pos + 4 + length), ControlMessage.class);
  }

  @Override
  public ControlMessage transform(ControlMessage message) {
    return message;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public byte systemCodecID() {
    return -1;
  }

  /** A control record (message or value) as JSON text: how the JobCenter publishes its state in the cluster maps. */
  public static String json(Object value) {
    return JSON.encodeToString(value);
  }

  /** Reads a control record from its JSON text ({@link #json}), with every check; a {@code BadMessageException} says what is wrong. */
  public static <T> T fromJson(String json, Class<T> type) {
    return JSON.decode(json.getBytes(java.nio.charset.StandardCharsets.UTF_8), type);
  }

  /** A control record as a JSON object, for code that serves JSON (the monitor's API). */
  public static JsonObject toJson(Object value) {
    return new JsonObject(json(value));
  }

  /** The names of every control message type, as they appear in the {@code type} field. */
  public static Iterable<String> typeNames() {
    return JSON.typeNames(ControlMessage.class);
  }
}
