package org.parl.internal.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ValueCodecTest {

  record Point(int x, String label) {}

  interface Api {
    Map<String, List<Point>> groups(List<Point> points, double[] weights, int n);
  }

  private final ValueCodec codec = new ValueCodec();

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 3, 999, 1000, 1001, 2047, 100_003})
  void primitiveArraysSurviveAnyLength(int n) throws IOException {
    Random r = new Random(n);
    float[] f = new float[n];
    double[] d = new double[n];
    long[] l = new long[n];
    int[] i = new int[n];
    short[] s = new short[n];
    for (int k = 0; k < n; k++) {
      f[k] = r.nextFloat();
      d[k] = r.nextDouble();
      l[k] = r.nextLong();
      i[k] = r.nextInt();
      s[k] = (short) r.nextInt();
    }
    Type[] types = {String.class, float[].class, double[].class, long[].class, int[].class, short[].class};
    Object[] values = {"x", f, d, l, i, s};
    FrameBuffer frame = new FrameBuffer(ValueCodec.sizeHint(values)).name("m".getBytes());
    codec.writeAll(types, values, frame);
    java.io.ByteArrayOutputStream sink = new java.io.ByteArrayOutputStream();
    frame.writeFrame(sink, Frames.RESULT, 1, true);
    Frames.Frame read = Frames.read(new java.io.DataInputStream(new java.io.ByteArrayInputStream(sink.toByteArray())));
    byte[] payload = read.payload();
    Object[] back = codec.readAll(types, payload, Frames.restOffset(payload, read.length()), read.length());
    assertArrayEquals(f, (float[]) back[1]);
    assertArrayEquals(d, (double[]) back[2]);
    assertArrayEquals(l, (long[]) back[3]);
    assertArrayEquals(i, (int[]) back[4]);
    assertArrayEquals(s, (short[]) back[5]);
    assertTrue(payload.length < 64 + n * 26L + 100, "compact: " + payload.length + " bytes for " + n + " elements of each");
  }

  @Test
  void genericTypesComeBackTyped() throws Exception {
    Method m = Api.class.getMethod("groups", List.class, double[].class, int.class);
    Object[] args = {List.of(new Point(1, "a"), new Point(2, "b")), new double[] {0.5}, 7};
    Object[] back = codec.readAll(m.getGenericParameterTypes(), codec.writeAll(m.getGenericParameterTypes(), args), 0);
    assertEquals(new Point(2, "b"), ((List<?>) back[0]).get(1), "element type restored from the declared List<Point>");
    Map<String, List<Point>> result = Map.of("g", List.of(new Point(3, "c")));
    Object decoded = codec.read(m.getGenericReturnType(), codec.write(m.getGenericReturnType(), result), 0);
    assertEquals(result, decoded);
    assertNull(codec.read(float[].class, codec.write(float[].class, null), 0));
  }

  @Test
  void wrongShapesAreRefused() throws IOException {
    Type[] types = {int.class, String.class};
    byte[] one = codec.writeAll(new Type[] {int.class}, new Object[] {1});
    assertThrows(IOException.class, () -> codec.readAll(types, one, 0));
    byte[] floats = codec.write(float[].class, new float[] {1, 2});
    assertThrows(IOException.class, () -> codec.read(double[].class, floats, 0), "8-byte elements from 8 bytes of floats? no");
  }

  @Test
  void arraysThatRunPastTheFrameAreRefused() throws IOException {
    byte[] good = codec.write(float[].class, new float[] {1, 2, 3});
    assertArrayEquals(new float[] {1, 2, 3}, (float[]) codec.read(float[].class, good, 0));
    byte[] cut = java.util.Arrays.copyOf(good, good.length - 4);
    assertThrows(IOException.class, () -> codec.read(float[].class, cut, 0), "one element missing");
    byte[] longer = java.util.Arrays.copyOf(good, good.length + 4);
    assertThrows(IOException.class, () -> codec.read(float[].class, longer, 0), "bytes left over");
    assertThrows(IOException.class, () -> codec.read(int.class, new byte[] {0, 0, 0, 9, 1}, 0), "a lying length");
  }

  /**
   * Scalars are written on Smile's streaming API, without databind: the bytes must be those databind
   * writes (a peer of an earlier version reads them), and databind's bytes must read back the same,
   * including a token databind coerces (a string for an int) and nulls for primitives.
   */
  @Test
  void scalarsTravelAsDatabindWritesThem() throws IOException {
    Type[] types = {void.class, boolean.class, Boolean.class, int.class, Integer.class, long.class, Long.class, float.class,
        Float.class, double.class, Double.class, String.class, String.class};
    Object[] values = {null, true, null, -7, 1 << 30, Long.MIN_VALUE, 5L, 1.5f, null, Math.PI, -0.0, "\u00e9t\u00e9", null};
    com.fasterxml.jackson.databind.ObjectMapper databind = new com.fasterxml.jackson.databind.ObjectMapper(
        com.fasterxml.jackson.dataformat.smile.SmileFactory.builder()
            .disable(com.fasterxml.jackson.dataformat.smile.SmileGenerator.Feature.ENCODE_BINARY_AS_7BIT).build());
    java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
    try (com.fasterxml.jackson.core.JsonGenerator g = databind.createGenerator(expected)) {
      g.writeStartArray();
      for (int i = 0; i < types.length; i++) {
        databind.writerFor(databind.constructType(types[i])).writeValue(g, values[i]);
      }
      g.writeEndArray();
    }
    byte[] ours = codec.writeAll(types, values);
    assertArrayEquals(expected.toByteArray(), java.util.Arrays.copyOfRange(ours, 4, ours.length));
    assertArrayEquals(values, codec.readAll(types, ours, 0));

    java.io.ByteArrayOutputStream odd = new java.io.ByteArrayOutputStream();
    try (com.fasterxml.jackson.core.JsonGenerator g = databind.createGenerator(odd)) {
      g.writeStartArray();
      g.writeString("42");
      g.writeNull();
      g.writeNumber(3);
      g.writeEndArray();
    }
    byte[] doc = odd.toByteArray();
    byte[] framed = java.nio.ByteBuffer.allocate(4 + doc.length).putInt(doc.length).put(doc).array();
    assertArrayEquals(new Object[] {42, 0, 3.0}, codec.readAll(new Type[] {int.class, int.class, double.class}, framed, 0));
  }

  record Sample(String name, float[] values, List<int[]> parts) {}

  /**
   * Top-level primitive arrays are written on the streaming API, those inside other values by
   * databind's module: both forms must be what the module writes, and read back either way.
   */
  @Test
  void primitiveArraysTravelTheSameOnBothPaths() throws IOException {
    float[] f = {1.5f, -2f, 3f};
    Sample s = new Sample("s", f, List.of(new int[] {1, 2}, new int[0]));
    Type[] types = {float[].class, Sample.class, long[].class, byte[].class};
    Object[] values = {f, s, null, new byte[] {7, 8, 9}};
    Object[] back = codec.readAll(types, codec.writeAll(types, values), 0);
    assertArrayEquals(f, (float[]) back[0]);
    Sample read = (Sample) back[1];
    assertArrayEquals(f, read.values());
    assertArrayEquals(new int[] {1, 2}, read.parts().get(0));
    assertEquals(0, read.parts().get(1).length);
    assertNull(back[2]);
    assertArrayEquals(new byte[] {7, 8, 9}, (byte[]) back[3]);
    // the same float[] as a top-level value and as a record's field: the same [length] form and bytes
    byte[] alone = codec.write(float[].class, f);
    byte[] inRecord = codec.write(Sample.class, new Sample("s", f, List.of()));
    byte[] tail = java.util.Arrays.copyOfRange(alone, alone.length - 12, alone.length);
    assertArrayEquals(tail, java.util.Arrays.copyOfRange(inRecord, inRecord.length - 12, inRecord.length));
    assertArrayEquals(new byte[] {0, 0, (byte) 0xc0, 0x3f}, java.util.Arrays.copyOf(tail, 4), "1.5f, little-endian");
  }
}
