package org.parl.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import com.fasterxml.jackson.dataformat.smile.SmileGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

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
        .registerModule(primitiveArrays());
  }

  /** Encodes {@code values[i]} as {@code types[i]}, as one Smile array. */
  public byte[] writeAll(Type[] types, Object[] values) throws IOException {
    Buffer out = new Buffer(64);
    try (JsonGenerator g = mapper.createGenerator(out)) {
      g.writeStartArray();
      for (int i = 0; i < types.length; i++) {
        writer(types[i]).writeValue(g, values[i]);
      }
      g.writeEndArray();
    }
    return out.bytes();
  }

  /** Decodes what {@link #writeAll} wrote, from {@code offset} on. */
  public Object[] readAll(Type[] types, byte[] data, int offset) throws IOException {
    Object[] values = new Object[types.length];
    try (JsonParser p = mapper.createParser(data, offset, data.length - offset)) {
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
    Buffer out = new Buffer(32);
    try (JsonGenerator g = mapper.createGenerator(out)) {
      writer(type).writeValue(g, value);
    }
    return out.bytes();
  }

  public Object read(Type type, byte[] data, int offset) throws IOException {
    if (data.length == offset) {
      return null;
    }
    try (JsonParser p = mapper.createParser(data, offset, data.length - offset)) {
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

  private static SimpleModule primitiveArrays() {
    SimpleModule m = new SimpleModule("parl-primitive-arrays");
    add(m, float[].class, 4, a -> a.length, (bb, a) -> bb.asFloatBuffer().put(a), (bb, n) -> {
      float[] a = new float[n];
      bb.asFloatBuffer().get(a);
      return a;
    });
    add(m, double[].class, 8, a -> a.length, (bb, a) -> bb.asDoubleBuffer().put(a), (bb, n) -> {
      double[] a = new double[n];
      bb.asDoubleBuffer().get(a);
      return a;
    });
    add(m, int[].class, 4, a -> a.length, (bb, a) -> bb.asIntBuffer().put(a), (bb, n) -> {
      int[] a = new int[n];
      bb.asIntBuffer().get(a);
      return a;
    });
    add(m, long[].class, 8, a -> a.length, (bb, a) -> bb.asLongBuffer().put(a), (bb, n) -> {
      long[] a = new long[n];
      bb.asLongBuffer().get(a);
      return a;
    });
    add(m, short[].class, 2, a -> a.length, (bb, a) -> bb.asShortBuffer().put(a), (bb, n) -> {
      short[] a = new short[n];
      bb.asShortBuffer().get(a);
      return a;
    });
    return m;
  }

  private interface Put<A> {
    void put(ByteBuffer bb, A array);
  }

  private interface Get<A> {
    A get(ByteBuffer bb, int n);
  }

  private static <A> void add(SimpleModule m, Class<A> type, int width, Function<A, Integer> length, Put<A> put, Get<A> get) {
    m.addSerializer(type, new JsonSerializer<A>() {
      @Override
      public void serialize(A value, JsonGenerator g, SerializerProvider p) throws IOException {
        byte[] bytes = new byte[length.apply(value) * width];
        put.put(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN), value);
        g.writeBinary(bytes);
      }
    });
    m.addDeserializer(type, new JsonDeserializer<A>() {
      @Override
      public A deserialize(JsonParser p, DeserializationContext ctx) throws IOException {
        if (p.currentToken() != JsonToken.VALUE_EMBEDDED_OBJECT) {
          return ctx.reportInputMismatch(type, "expected the binary form of a " + type.getSimpleName()
              + ", got " + p.currentToken());
        }
        byte[] bytes = p.getBinaryValue();
        if (bytes.length % width != 0) {
          throw new IOException(type.getSimpleName() + " payload of " + bytes.length + " bytes is not a multiple of " + width);
        }
        return get.get(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN), bytes.length / width);
      }
    });
  }
}
