package org.parl.internal.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.lang.reflect.Type;

/**
 * The values {@link ValueCodec} writes and reads on Smile's streaming API alone: no value, booleans,
 * {@code int}, {@code long}, {@code float}, {@code double} (boxed or not) and strings, as the same
 * tokens Jackson's databind writes for them. An actor whose calls carry only these never loads
 * databind, a fresh JVM's largest load after Vert.x; a token databind would have to coerce (a peer that
 * sent a string for an {@code int}) is left to databind, which reads it as before.
 */
final class Scalars {

  /** A scalar kind: the class its values have, and its primitive type if it has one. */
  enum Kind {
    VOID(Void.class, void.class), BOOLEAN(Boolean.class, boolean.class), INT(Integer.class, int.class),
    LONG(Long.class, long.class), FLOAT(Float.class, float.class), DOUBLE(Double.class, double.class),
    STRING(String.class, null);

    private final Class<?> box;
    private final Class<?> primitive;

    Kind(Class<?> box, Class<?> primitive) {
      this.box = box;
      this.primitive = primitive;
    }
  }

  private static final Kind[] KINDS = Kind.values();

  /** What {@link #read} returns for a token it leaves to databind. */
  static final Object NOT_READ = new Object();

  private Scalars() {}

  /** The kind of {@code type}, or null when it is not a scalar. */
  static Kind of(Type type) {
    for (Kind k : KINDS) {
      if (type == k.box || type == k.primitive) {
        return k;
      }
    }
    return null;
  }

  /** Writes {@code value} as a {@code kind}; false, having written nothing, when it is not one. */
  static boolean write(JsonGenerator g, Kind kind, Object value) throws IOException {
    if (value == null || kind == Kind.VOID) {
      g.writeNull();
      return true;
    }
    if (!kind.box.isInstance(value)) {
      return false;
    }
    switch (kind) {
      case BOOLEAN -> g.writeBoolean((Boolean) value);
      case INT -> g.writeNumber((Integer) value);
      case LONG -> g.writeNumber((Long) value);
      case FLOAT -> g.writeNumber((Float) value);
      case DOUBLE -> g.writeNumber((Double) value);
      default -> g.writeString((String) value);
    }
    return true;
  }

  /**
   * The value of the parser's current token as a {@code kind}, or {@link #NOT_READ} when the token
   * is not the one {@link #write} makes for it.
   *
   * @param primitive whether the declared type is primitive: null reads as its zero, as databind does
   */
  static Object read(JsonParser p, Kind kind, boolean primitive) throws IOException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_NULL) {
      return primitive ? zero(kind) : null;
    }
    return switch (kind) {
      case BOOLEAN -> t == JsonToken.VALUE_TRUE ? Boolean.TRUE : t == JsonToken.VALUE_FALSE ? Boolean.FALSE : NOT_READ;
      case INT -> t == JsonToken.VALUE_NUMBER_INT ? (Object) p.getIntValue() : NOT_READ;
      case LONG -> t == JsonToken.VALUE_NUMBER_INT ? (Object) p.getLongValue() : NOT_READ;
      case FLOAT -> t == JsonToken.VALUE_NUMBER_FLOAT ? (Object) p.getFloatValue() : NOT_READ;
      case DOUBLE -> t == JsonToken.VALUE_NUMBER_FLOAT ? (Object) p.getDoubleValue() : NOT_READ;
      case STRING -> t == JsonToken.VALUE_STRING ? p.getText() : NOT_READ;
      case VOID -> NOT_READ;
    };
  }

  private static Object zero(Kind kind) {
    return switch (kind) {
      case BOOLEAN -> Boolean.FALSE;
      case INT -> 0;
      case LONG -> 0L;
      case FLOAT -> 0f;
      case DOUBLE -> 0.0;
      default -> null;
    };
  }
}
