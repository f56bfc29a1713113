package org.parl.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import com.fasterxml.jackson.dataformat.smile.SmileGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Arguments and results on the data path: Jackson's binary Smile format, typed by the declared
 * (generic) Java types on both ends, with primitive arrays carried as raw little-endian bytes
 * instead of one Smile number per element.
 *
 * <p>Thread-safe; readers and writers are cached per type.
 */
public final class ValueCodec {

  private final ObjectMapper mapper;
  private final ConcurrentHashMap<Type, ObjectWriter> writers = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Type, ObjectReader> readers = new ConcurrentHashMap<>();

  public ValueCodec() {
    SmileFactory smile = SmileFactory.builder()
        .disable(SmileGenerator.Feature.ENCODE_BINARY_AS_7BIT)
        .build();
    mapper = new ObjectMapper(smile)
        .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .registerModule(PrimitiveArrays.module());
  }

  /** Encodes {@code values[i]} as {@code types[i]}, as one Smile array. */
  public byte[] writeAll(Type[] types, Object[] values) throws IOException {
    Buffer out = new Buffer(sizeHint(values));
    writeAll(types, values, out);
    return out.bytes();
  }

  /** {@link #writeAll(Type[], Object[])} into a stream, such as a {@link FrameBuffer}. */
  public void writeAll(Type[] types, Object[] values, java.io.OutputStream out) throws IOException {
    try (JsonGenerator g = mapper.createGenerator(out)) {
      g.writeStartArray();
      for (int i = 0; i < types.length; i++) {
        writer(types[i]).writeValue(g, values[i]);
      }
      g.writeEndArray();
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

  /** Decodes what {@link #writeAll} wrote, from {@code offset} on. */
  public Object[] readAll(Type[] types, byte[] data, int offset) throws IOException {
    return readAll(types, data, offset, data.length);
  }

  /** Decodes what {@link #writeAll} wrote, between {@code offset} and {@code end}. */
  public Object[] readAll(Type[] types, byte[] data, int offset, int end) throws IOException {
    Object[] values = new Object[types.length];
    try (JsonParser p = mapper.createParser(data, offset, end - offset)) {
      if (p.nextToken() != JsonToken.START_ARRAY) {
        throw new IOException("expected an array of " + types.length + " value(s)");
      }
      for (int i = 0; i < types.length; i++) {
        if (p.nextToken() == JsonToken.END_ARRAY) {
          throw new IOException("expected " + types.length + " value(s), got " + i);
        }
        values[i] = reader(types[i]).readValue(p);
      }
      if (p.nextToken() != JsonToken.END_ARRAY) {
        throw new IOException("more than the expected " + types.length + " value(s)");
      }
    }
    return values;
  }

  public byte[] write(Type type, Object value) throws IOException {
    Buffer out = new Buffer(sizeHint(value));
    write(type, value, out);
    return out.bytes();
  }

  /** {@link #write(Type, Object)} into a stream, such as a {@link FrameBuffer}. */
  public void write(Type type, Object value, java.io.OutputStream out) throws IOException {
    try (JsonGenerator g = mapper.createGenerator(out)) {
      writer(type).writeValue(g, value);
    }
  }

  public Object read(Type type, byte[] data, int offset) throws IOException {
    return read(type, data, offset, data.length);
  }

  /** Decodes one value between {@code offset} and {@code end}; nothing there decodes as null. */
  public Object read(Type type, byte[] data, int offset, int end) throws IOException {
    if (end == offset) {
      return null;
    }
    try (JsonParser p = mapper.createParser(data, offset, end - offset)) {
      p.nextToken();
      return reader(type).readValue(p);
    }
  }

  private ObjectWriter writer(Type type) {
    return writers.computeIfAbsent(type, t -> mapper.writerFor(mapper.constructType(t)));
  }

  private ObjectReader reader(Type type) {
    return readers.computeIfAbsent(type, t -> {
      JavaType jt = mapper.constructType(t);
      return mapper.readerFor(jt);
    });
  }

  /** A growable byte buffer whose content can be taken without a copy when exactly full. */
  private static final class Buffer extends ByteArrayOutputStream {
    Buffer(int size) {
      super(size);
    }

    byte[] bytes() {
      return count == buf.length ? buf : toByteArray();
    }
  }
}
