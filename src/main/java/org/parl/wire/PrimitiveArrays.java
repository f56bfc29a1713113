package org.parl.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Function;

/**
 * The compact form of primitive arrays ({@code float[]}, {@code double[]}, {@code int[]},
 * {@code long[]}, {@code short[]}) for {@link ValueCodec}: raw little-endian bytes instead of one
 * Smile number per element.
 */
final class PrimitiveArrays {

  private PrimitiveArrays() {}

  static SimpleModule module() {
    SimpleModule m = new SimpleModule("parl-primitive-arrays");
    add(m, float[].class, 4, a -> a.length, float[]::new,
        (bb, a, at, n) -> bb.asFloatBuffer().put(a, at, n), (bb, a, at, n) -> bb.asFloatBuffer().get(a, at, n));
    add(m, double[].class, 8, a -> a.length, double[]::new,
        (bb, a, at, n) -> bb.asDoubleBuffer().put(a, at, n), (bb, a, at, n) -> bb.asDoubleBuffer().get(a, at, n));
    add(m, int[].class, 4, a -> a.length, int[]::new,
        (bb, a, at, n) -> bb.asIntBuffer().put(a, at, n), (bb, a, at, n) -> bb.asIntBuffer().get(a, at, n));
    add(m, long[].class, 8, a -> a.length, long[]::new,
        (bb, a, at, n) -> bb.asLongBuffer().put(a, at, n), (bb, a, at, n) -> bb.asLongBuffer().get(a, at, n));
    add(m, short[].class, 2, a -> a.length, short[]::new,
        (bb, a, at, n) -> bb.asShortBuffer().put(a, at, n), (bb, a, at, n) -> bb.asShortBuffer().get(a, at, n));
    return m;
  }

  /** Copies {@code n} elements between a little-endian byte view and the array, from index {@code at}. */
  interface Copy<A> {
    void copy(ByteBuffer bytes, A array, int at, int n);
  }

  /**
   * A primitive array travels as {@code [length, raw little-endian bytes]}: the length lets the
   * reader allocate the array first, and the bytes are streamed straight between the array and
   * the frame, without an intermediate byte array on either side.
   */
  private static <A> void add(SimpleModule m, Class<A> type, int width, Function<A, Integer> length,
      java.util.function.IntFunction<A> alloc, Copy<A> put, Copy<A> get) {
    m.addSerializer(type, new JsonSerializer<A>() {
      @Override
      public void serialize(A value, JsonGenerator g, SerializerProvider p) throws IOException {
        int n = length.apply(value);
        g.writeStartArray();
        g.writeNumber(n);
        g.writeBinary(new ArrayInput<>(value, n, width, put), n * width);
        g.writeEndArray();
      }
    });
    m.addDeserializer(type, new JsonDeserializer<A>() {
      @Override
      public A deserialize(JsonParser p, DeserializationContext ctx) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY || p.nextToken() != JsonToken.VALUE_NUMBER_INT) {
          return ctx.reportInputMismatch(type, "expected the [length, bytes] form of a " + type.getSimpleName());
        }
        int n = p.getIntValue();
        if (n < 0 || (long) n * width > Frames.MAX_PAYLOAD) {
          return ctx.reportInputMismatch(type, "bad " + type.getSimpleName() + " length " + n);
        }
        if (p.nextToken() != JsonToken.VALUE_EMBEDDED_OBJECT) {
          return ctx.reportInputMismatch(type, "expected the bytes of a " + type.getSimpleName());
        }
        A array = alloc.apply(n);
        ArrayOutput<A> out = new ArrayOutput<>(array, width, get);
        int read = p.readBinaryValue(out);
        if (read != n * width || p.nextToken() != JsonToken.END_ARRAY) {
          return ctx.reportInputMismatch(type, type.getSimpleName() + " of " + n + " elements carried " + read + " bytes");
        }
        return array;
      }
    });
  }

  /** Produces the little-endian bytes of an array, a chunk at a time, into the generator's buffer. */
  static final class ArrayInput<A> extends java.io.InputStream {
    private final A array;
    private final int n;
    private final int width;
    private final Copy<A> put;
    private final byte[] split;
    private int splitPos;
    private int next;

    ArrayInput(A array, int n, int width, Copy<A> put) {
      this.array = array;
      this.n = n;
      this.width = width;
      this.put = put;
      this.split = new byte[width];
      this.splitPos = width;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      int written = 0;
      while (splitPos < width && written < len) {
        b[off + written++] = split[splitPos++];
      }
      int elements = Math.min(n - next, (len - written) / width);
      if (elements > 0) {
        put.copy(ByteBuffer.wrap(b, off + written, elements * width).slice().order(ByteOrder.LITTLE_ENDIAN), array, next, elements);
        next += elements;
        written += elements * width;
      }
      if (written < len && next < n) {
        // the room left is smaller than one element: hand out part of it now, the rest next time
        put.copy(ByteBuffer.wrap(split).order(ByteOrder.LITTLE_ENDIAN), array, next++, 1);
        splitPos = 0;
        while (splitPos < width && written < len) {
          b[off + written++] = split[splitPos++];
        }
      }
      return written == 0 && len > 0 ? -1 : written;
    }

    @Override
    public int read() {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }
  }

  /** Fills an array from little-endian bytes, whatever the chunking of the stream. */
  static final class ArrayOutput<A> extends java.io.OutputStream {
    private final A array;
    private final int width;
    private final Copy<A> get;
    private final byte[] partial;
    private int partialLength;
    private int next;

    ArrayOutput(A array, int width, Copy<A> get) {
      this.array = array;
      this.width = width;
      this.get = get;
      this.partial = new byte[width];
    }

    @Override
    public void write(byte[] b, int off, int len) {
      while (partialLength > 0 && len > 0) {
        write(b[off++]);
        len--;
      }
      int elements = len / width;
      if (elements > 0) {
        get.copy(ByteBuffer.wrap(b, off, elements * width).slice().order(ByteOrder.LITTLE_ENDIAN), array, next, elements);
        next += elements;
      }
      for (int i = elements * width; i < len; i++) {
        write(b[off + i]);
      }
    }

    @Override
    public void write(int b) {
      partial[partialLength++] = (byte) b;
      if (partialLength == width) {
        get.copy(ByteBuffer.wrap(partial).order(ByteOrder.LITTLE_ENDIAN), array, next++, 1);
        partialLength = 0;
      }
    }
  }
}
