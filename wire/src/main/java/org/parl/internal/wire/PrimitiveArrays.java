package org.parl.internal.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;

/**
 * The compact form of primitive arrays ({@code float[]}, {@code double[]}, {@code int[]},
 * {@code long[]}, {@code short[]}, {@code byte[]}) for {@link ValueCodec}. In the Smile document an
 * array is only {@code [length]}; its elements follow the document as raw little-endian bytes,
 * copied from the array as the frame is written ({@link FrameBuffer.Tail}) and read straight from
 * the frame into the new array, which matters for megabytes of floats.
 *
 * <p>With a {@link SharedLink}, an array of at least {@link SharedArea#MIN_BYTES} is instead
 * copied into the shared area and written as {@code [length, offset]}: the frame then carries only
 * where it lies (its type is the declared one), and the receiver copies it out of the area.
 */
final class PrimitiveArrays {

  /** Attribute key under which the codec passes {@link Attachments} and {@link Cursor}. */
  static final Object KEY = PrimitiveArrays.class;

  private PrimitiveArrays() {}

  /** Copies {@code n} elements from index {@code offset} on between a little-endian byte view and an array. */
  interface Copy<A> {
    void copy(ByteBuffer bytes, A array, int offset, int n);
  }

  /** One kind of primitive array. */
  record Kind<A>(Class<A> type, int width, ToIntFunction<A> length, IntFunction<A> alloc, Copy<A> put, Copy<A> get) {}

  /** The arrays met while writing one value, appended to the frame after its Smile document. */
  static final class Attachments {
    private final List<Object> arrays = new ArrayList<>();
    private final List<Kind<?>> kinds = new ArrayList<>();
    private final SharedLink.Lease shared;

    /** @param shared the message's use of a shared area ({@link SharedLink.Lease#NONE}: every array stays in the frame) */
    Attachments(SharedLink.Lease shared) {
      this.shared = shared;
    }

    /** Copies a large array into the shared area if there is room: its offset there, or -1. */
    <A> long share(A array, Kind<A> kind) {
      int n = kind.length().applyAsInt(array);
      long bytes = (long) n * kind.width();
      if (bytes < SharedArea.MIN_BYTES || bytes > Integer.MAX_VALUE) {
        return -1;
      }
      SharedLink.Place place = shared.place((int) bytes);
      if (place == null) {
        return -1;
      }
      kind.put().copy(place.bytes(), array, 0, n);
      return place.offset();
    }

    <A> void add(A array, Kind<A> kind) {
      arrays.add(array);
      kinds.add(kind);
    }

    /** Appends the arrays' elements to the frame, to be copied from the arrays when it is written. */
    @SuppressWarnings("unchecked")
    void writeTo(FrameBuffer out) {
      for (int i = 0; i < arrays.size(); i++) {
        out.attach(tail(arrays.get(i), (Kind<Object>) kinds.get(i)));
      }
    }

    private static <A> FrameBuffer.Tail tail(A array, Kind<A> kind) {
      int bytes = kind.length().applyAsInt(array) * kind.width();
      return new FrameBuffer.Tail() {
        @Override
        public int bytes() {
          return bytes;
        }

        @Override
        public void copy(ByteBuffer into, int from) {
          kind.put().copy(into, array, from / kind.width(), into.remaining() / kind.width());
        }
      };
    }
  }

  /** Where the next array's bytes start in the frame being read. */
  static final class Cursor {
    private final byte[] data;
    private int next;
    private final int end;
    private final SharedLink shared;

    /** @param shared where arrays written as {@code [length, offset]} lie, or null when there is none */
    Cursor(byte[] data, int start, int end, SharedLink shared) {
      this.data = data;
      this.next = start;
      this.end = end;
      this.shared = shared;
    }

    ByteBuffer shared(long offset, int bytes) throws IOException {
      if (shared == null) {
        throw new BadFrameException("an array in a shared area, on a connection without one");
      }
      return shared.inbound(offset, bytes);
    }

    ByteBuffer take(int bytes) throws IOException {
      if (bytes < 0 || bytes > end - next) {
        throw new IOException("an array of " + bytes + " bytes runs past the frame");
      }
      ByteBuffer b = ByteBuffer.wrap(data, next, bytes).slice().order(ByteOrder.LITTLE_ENDIAN);
      next += bytes;
      return b;
    }

    boolean atEnd() {
      return next == end;
    }
  }

  /** The six kinds, by array class. */
  private static final Map<Class<?>, Kind<?>> KINDS = kinds();

  private static Map<Class<?>, Kind<?>> kinds() {
    Map<Class<?>, Kind<?>> m = new HashMap<>();
    List.of(new Kind<>(float[].class, 4, a -> a.length, float[]::new,
            (bb, a, off, n) -> bb.asFloatBuffer().put(a, off, n), (bb, a, off, n) -> bb.asFloatBuffer().get(a, off, n)),
        new Kind<>(double[].class, 8, a -> a.length, double[]::new,
            (bb, a, off, n) -> bb.asDoubleBuffer().put(a, off, n), (bb, a, off, n) -> bb.asDoubleBuffer().get(a, off, n)),
        new Kind<>(int[].class, 4, a -> a.length, int[]::new,
            (bb, a, off, n) -> bb.asIntBuffer().put(a, off, n), (bb, a, off, n) -> bb.asIntBuffer().get(a, off, n)),
        new Kind<>(long[].class, 8, a -> a.length, long[]::new,
            (bb, a, off, n) -> bb.asLongBuffer().put(a, off, n), (bb, a, off, n) -> bb.asLongBuffer().get(a, off, n)),
        new Kind<>(short[].class, 2, a -> a.length, short[]::new,
            (bb, a, off, n) -> bb.asShortBuffer().put(a, off, n), (bb, a, off, n) -> bb.asShortBuffer().get(a, off, n)),
        new Kind<>(byte[].class, 1, a -> a.length, byte[]::new,
            (bb, a, off, n) -> bb.put(a, off, n), (bb, a, off, n) -> bb.get(a, off, n)))
        .forEach(k -> m.put(k.type(), k));
    return Map.copyOf(m);
  }

  /** The kind of {@code type}, or null when it is not a primitive array of one of the six kinds. */
  static Kind<?> of(Type type) {
    return type instanceof Class<?> c ? KINDS.get(c) : null;
  }

  /**
   * Writes an array of {@code kind} as {@code [length]}, its elements attached after the document,
   * or as {@code [length, offset]} when it went into the shared area.
   */
  static <A> void write(JsonGenerator g, Object value, Kind<A> kind, Attachments attachments) throws IOException {
    A array = kind.type().cast(value);
    long offset = attachments.share(array, kind);
    g.writeStartArray();
    g.writeNumber(kind.length().applyAsInt(array));
    if (offset >= 0) {
      g.writeNumber(offset);
    } else {
      attachments.add(array, kind);
    }
    g.writeEndArray();
  }

  /** Reads what {@link #write} wrote, the parser at its start; {@link IOException} for anything else. */
  static <A> A read(JsonParser p, Kind<A> kind, Cursor cursor) throws IOException {
    if (p.currentToken() != JsonToken.START_ARRAY || p.nextToken() != JsonToken.VALUE_NUMBER_INT) {
      throw new IOException("expected the [length] form of a " + kind.type().getSimpleName());
    }
    int n = p.getIntValue();
    if (n < 0 || (long) n * kind.width() > Frames.MAX_PAYLOAD) {
      throw new IOException("bad " + kind.type().getSimpleName() + " length " + n);
    }
    ByteBuffer bytes;
    JsonToken next = p.nextToken();
    if (next == JsonToken.VALUE_NUMBER_INT) {
      long offset = p.getLongValue();
      if (p.nextToken() != JsonToken.END_ARRAY) {
        throw new IOException("expected the [length, offset] form of a shared " + kind.type().getSimpleName());
      }
      bytes = cursor.shared(offset, n * kind.width());
    } else if (next == JsonToken.END_ARRAY) {
      bytes = cursor.take(n * kind.width());
    } else {
      throw new IOException("bad " + kind.type().getSimpleName() + " length " + n);
    }
    A array = kind.alloc().apply(n);
    kind.get().copy(bytes, array, 0, n);
    return array;
  }

  /** The same forms for arrays inside other values (records, lists, maps), which databind writes and reads. */
  static SimpleModule module() {
    SimpleModule m = new SimpleModule("parl-primitive-arrays");
    KINDS.values().forEach(k -> add(m, k));
    return m;
  }

  private static <A> void add(SimpleModule m, Kind<A> kind) {
    String name = kind.type().getSimpleName();
    m.addSerializer(kind.type(), new JsonSerializer<A>() {
      @Override
      public void serialize(A value, JsonGenerator g, SerializerProvider p) throws IOException {
        if (!(p.getAttribute(KEY) instanceof Attachments attachments)) {
          throw new IOException(name + " values are written by ValueCodec only");
        }
        write(g, value, kind, attachments);
      }
    });
    m.addDeserializer(kind.type(), new JsonDeserializer<A>() {
      @Override
      public A deserialize(JsonParser p, DeserializationContext ctx) throws IOException {
        if (!(ctx.getAttribute(KEY) instanceof Cursor cursor)) {
          throw new IOException(name + " values are read by ValueCodec only");
        }
        return read(p, kind, cursor);
      }
    });
  }
}
