package org.parl.internal.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import com.fasterxml.jackson.dataformat.smile.SmileGenerator;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Arguments and results on the data path: Jackson's binary Smile format, typed by the declared
 * (generic) Java types on both ends, with primitive arrays carried as raw little-endian bytes.
 *
 * <p>An encoded value is {@code int32 smileLength | Smile document | array bytes}: the elements
 * of primitive arrays follow the document (see {@link PrimitiveArrays}). {@link Scalars} and
 * primitive arrays are written and read on the streaming API; databind, for the other types, is set
 * up at the first of them. Thread-safe; readers and writers are cached per type.
 */
public final class ValueCodec {

  private final SmileFactory factory = SmileFactory.builder()
      .disable(SmileGenerator.Feature.ENCODE_BINARY_AS_7BIT)
      .build();
  /** Built at the first value that is not one of the {@link Scalars}. */
  private volatile ObjectMapper mapper;
  private final ConcurrentHashMap<Type, ObjectWriter> writers = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Type, ObjectReader> readers = new ConcurrentHashMap<>();

  private ObjectMapper mapper() {
    ObjectMapper m = mapper;
    if (m == null) {
      synchronized (this) {
        m = mapper;
        if (m == null) {
          m = new ObjectMapper(factory)
              .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
              .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
              .registerModule(PrimitiveArrays.module());
          mapper = m;
        }
      }
    }
    return m;
  }

  /** Encodes {@code values[i]} as {@code types[i]}, as one Smile array, at the end of {@code out}. */
  public void writeAll(Type[] types, Object[] values, FrameBuffer out) throws IOException {
    writeAll(types, values, out, SharedLink.Lease.NONE);
  }

  /**
   * {@link #writeAll(Type[], Object[], FrameBuffer)}, with large primitive arrays copied into a
   * shared area when {@code shared} has room for them ({@link SharedLink.Lease#NONE}: none).
   */
  public void writeAll(Type[] types, Object[] values, FrameBuffer out, SharedLink.Lease shared) throws IOException {
    PrimitiveArrays.Attachments arrays = new PrimitiveArrays.Attachments(shared);
    int start = out.extend(4);
    try (JsonGenerator g = factory.createGenerator(out)) {
      g.writeStartArray();
      for (int i = 0; i < types.length; i++) {
        writeOne(g, types[i], values[i], arrays);
      }
      g.writeEndArray();
    }
    finish(out, start, arrays);
  }

  /** Encodes one value as {@code type} at the end of {@code out}. */
  public void write(Type type, Object value, FrameBuffer out) throws IOException {
    write(type, value, out, SharedLink.Lease.NONE);
  }

  /**
   * {@link #write(Type, Object, FrameBuffer)}, with large primitive arrays in {@code shared} when it
   * has room ({@link SharedLink.Lease#NONE}: none).
   */
  public void write(Type type, Object value, FrameBuffer out, SharedLink.Lease shared) throws IOException {
    PrimitiveArrays.Attachments arrays = new PrimitiveArrays.Attachments(shared);
    int start = out.extend(4);
    try (JsonGenerator g = factory.createGenerator(out)) {
      writeOne(g, type, value, arrays);
    }
    finish(out, start, arrays);
  }

  private void writeOne(JsonGenerator g, Type type, Object value, PrimitiveArrays.Attachments arrays) throws IOException {
    Scalars.Kind scalar = Scalars.of(type);
    if (scalar != null && Scalars.write(g, scalar, value)) {
      return;
    }
    PrimitiveArrays.Kind<?> array = PrimitiveArrays.of(type);
    if (array != null && value == null) {
      g.writeNull();
    } else if (array != null && array.type().isInstance(value)) {
      PrimitiveArrays.write(g, value, array, arrays);
    } else {
      writer(type).withAttribute(PrimitiveArrays.KEY, arrays).writeValue(g, value);
    }
  }

  /** The value at the parser's current token. */
  private Object readOne(JsonParser p, Type type, PrimitiveArrays.Cursor arrays) throws IOException {
    Scalars.Kind scalar = Scalars.of(type);
    Object value = scalar == null ? Scalars.NOT_READ : Scalars.read(p, scalar, ((Class<?>) type).isPrimitive());
    if (value != Scalars.NOT_READ) {
      return value;
    }
    PrimitiveArrays.Kind<?> array = PrimitiveArrays.of(type);
    if (array != null && p.currentToken() == JsonToken.VALUE_NULL) {
      return null;
    }
    if (array != null && p.currentToken() == JsonToken.START_ARRAY) {
      return PrimitiveArrays.read(p, array, arrays);
    }
    return reader(type).withAttribute(PrimitiveArrays.KEY, arrays).readValue(p);
  }

  private static void finish(FrameBuffer out, int start, PrimitiveArrays.Attachments arrays) {
    out.putInt(start, out.position() - start - 4);
    arrays.writeTo(out);
  }

  /** {@link #writeAll(Type[], Object[], FrameBuffer)} as a byte array of its own. */
  public byte[] writeAll(Type[] types, Object[] values) throws IOException {
    FrameBuffer out = new FrameBuffer(sizeHint(values));
    int from = out.position();
    writeAll(types, values, out);
    return Arrays.copyOfRange(out.array(), from, out.position());
  }

  /** {@link #write(Type, Object, FrameBuffer)} as a byte array of its own. */
  public byte[] write(Type type, Object value) throws IOException {
    FrameBuffer out = new FrameBuffer(sizeHint(value));
    int from = out.position();
    write(type, value, out);
    return Arrays.copyOfRange(out.array(), from, out.position());
  }

  /** Decodes what {@link #writeAll} wrote, from {@code offset} to the end of {@code data}. */
  public Object[] readAll(Type[] types, byte[] data, int offset) throws IOException {
    return readAll(types, data, offset, data.length);
  }

  /** Decodes what {@link #writeAll} wrote, between {@code offset} and {@code end}. */
  public Object[] readAll(Type[] types, byte[] data, int offset, int end) throws IOException {
    return readAll(types, data, offset, end, null);
  }

  /**
   * {@link #readAll(Type[], byte[], int, int)} for a frame that may refer to arrays in the inbound
   * half of {@code shared} (null: none), which are copied out of it.
   */
  public Object[] readAll(Type[] types, byte[] data, int offset, int end, SharedLink shared) throws IOException {
    int smile = smileLength(data, offset, end);
    PrimitiveArrays.Cursor arrays = new PrimitiveArrays.Cursor(data, offset + 4 + smile, end, shared);
    Object[] values = new Object[types.length];
    try (JsonParser p = factory.createParser(data, offset + 4, smile)) {
      if (p.nextToken() != JsonToken.START_ARRAY) {
        throw new IOException("expected an array of " + types.length + " value(s)");
      }
      for (int i = 0; i < types.length; i++) {
        if (p.nextToken() == JsonToken.END_ARRAY) {
          throw new IOException("expected " + types.length + " value(s), got " + i);
        }
        values[i] = readOne(p, types[i], arrays);
      }
      if (p.nextToken() != JsonToken.END_ARRAY) {
        throw new IOException("more than the expected " + types.length + " value(s)");
      }
    }
    requireEnd(arrays);
    return values;
  }

  /** Decodes one value from {@code offset} to the end of {@code data}. */
  public Object read(Type type, byte[] data, int offset) throws IOException {
    return read(type, data, offset, data.length);
  }

  /** Decodes one value between {@code offset} and {@code end}; nothing there decodes as null. */
  public Object read(Type type, byte[] data, int offset, int end) throws IOException {
    return read(type, data, offset, end, null);
  }

  /** {@link #read(Type, byte[], int, int)} for a frame that may refer to arrays in {@code shared} (null: none). */
  public Object read(Type type, byte[] data, int offset, int end, SharedLink shared) throws IOException {
    if (end == offset) {
      return null;
    }
    int smile = smileLength(data, offset, end);
    PrimitiveArrays.Cursor arrays = new PrimitiveArrays.Cursor(data, offset + 4 + smile, end, shared);
    Object value;
    try (JsonParser p = factory.createParser(data, offset + 4, smile)) {
      p.nextToken();
      value = readOne(p, type, arrays);
    }
    requireEnd(arrays);
    return value;
  }

  private static int smileLength(byte[] data, int offset, int end) throws IOException {
    if (end - offset < 4) {
      throw new IOException("an encoded value needs at least 4 bytes, got " + (end - offset));
    }
    int n = ((data[offset] & 0xFF) << 24) | ((data[offset + 1] & 0xFF) << 16) | ((data[offset + 2] & 0xFF) << 8)
        | (data[offset + 3] & 0xFF);
    if (n < 0 || n > end - offset - 4) {
      throw new IOException("an encoded value announces " + n + " bytes but has " + (end - offset - 4));
    }
    return n;
  }

  private static void requireEnd(PrimitiveArrays.Cursor arrays) throws IOException {
    if (!arrays.atEnd()) {
      throw new IOException("bytes are left over after the value");
    }
  }

  /** About how many bytes {@code values} take encoded: exact enough for large arrays. */
  public static int sizeHint(Object... values) {
    long n = 64;
    for (Object v : values) {
      if (v != null && v.getClass().isArray() && v.getClass().getComponentType().isPrimitive()) {
        n += 16 + (long) java.lang.reflect.Array.getLength(v) * width(v.getClass().getComponentType());
      } else {
        n += 32;
      }
    }
    return (int) Math.min(n, Frames.MAX_PAYLOAD);
  }

  private static int width(Class<?> primitive) {
    if (primitive == long.class || primitive == double.class) {
      return 8;
    }
    if (primitive == int.class || primitive == float.class) {
      return 4;
    }
    return primitive == short.class || primitive == char.class ? 2 : 1;
  }

  private ObjectWriter writer(Type type) {
    return writers.computeIfAbsent(type, t -> mapper().writerFor(mapper().constructType(t)));
  }

  private ObjectReader reader(Type type) {
    return readers.computeIfAbsent(type, t -> mapper().readerFor(mapper().constructType(t)));
  }
}
