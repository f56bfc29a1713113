package org.parl.internal.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Large arrays at the end of a frame are written from the arrays themselves, in pieces
 * ({@link FrameBuffer.Tail}): the bytes on the wire are exactly those of the same frame with the
 * arrays copied in, whatever is written after them comes after them, and a written (or failed)
 * frame keeps no reference to the caller's arrays.
 */
class FrameBufferTailTest {

  private final ValueCodec codec = new ValueCodec();
  private static final Type[] TYPES = {String.class, float[].class, long[].class, byte[].class};

  /** Larger than a piece, not a multiple of one, and of every element width. */
  private static Object[] values() {
    Random r = new Random(7);
    float[] f = new float[FrameBuffer.PIECE / 4 * 3 + 17];
    long[] l = new long[FrameBuffer.PIECE / 8 + 5];
    byte[] b = new byte[FrameBuffer.PIECE + 3];
    for (int i = 0; i < f.length; i++) {
      f[i] = r.nextFloat();
    }
    for (int i = 0; i < l.length; i++) {
      l[i] = r.nextLong();
    }
    r.nextBytes(b);
    return new Object[] {"x", f, l, b};
  }

  private byte[] written(FrameBuffer frame) throws IOException {
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    frame.writeFrame(sink, Frames.RESULT, 9, true);
    return sink.toByteArray();
  }

  @Test
  void arraysWrittenInPiecesGiveTheSameBytesAsArraysCopiedIn() throws IOException {
    Object[] values = values();
    FrameBuffer pieces = new FrameBuffer(64).name("m".getBytes());
    codec.writeAll(TYPES, values, pieces);
    FrameBuffer copied = new FrameBuffer(64).name("m".getBytes());
    codec.writeAll(TYPES, values, copied);
    copied.copyArraysIn();
    assertEquals(copied.payloadLength(), pieces.payloadLength());
    byte[] wire = written(pieces);
    assertArrayEquals(written(copied), wire);

    Frames.Frame f = Frames.read(new DataInputStream(new ByteArrayInputStream(wire)));
    Object[] back = codec.readAll(TYPES, f.payload(), Frames.restOffset(f.payload(), f.length()), f.length());
    assertArrayEquals((float[]) values[1], (float[]) back[1]);
    assertArrayEquals((long[]) values[2], (long[]) back[2]);
    assertArrayEquals((byte[]) values[3], (byte[]) back[3]);
  }

  @Test
  void whatIsWrittenAfterTheArraysComesAfterThem() throws IOException {
    float[] f = (float[]) values()[1];
    FrameBuffer frame = new FrameBuffer(64);
    codec.write(float[].class, f, frame);
    long before = frame.payloadLength();
    frame.write(new byte[] {1, 2, 3}, 0, 3);
    assertEquals(before + 3, frame.payloadLength());
    byte[] payload = Arrays.copyOfRange(frame.array(), Frames.HEADER, frame.position());
    assertArrayEquals(new byte[] {1, 2, 3}, Arrays.copyOfRange(payload, payload.length - 3, payload.length));
    assertArrayEquals(f, (float[]) codec.read(float[].class, payload, 0, payload.length - 3));
  }

  @Test
  void aFrameCopiedInIsASnapshotAndAWrittenOneLetsGoOfTheArrays() throws IOException {
    float[] f = new float[FrameBuffer.PIECE / 2];
    Arrays.fill(f, 1f);
    FrameBuffer snapshot = new FrameBuffer(64);
    codec.write(float[].class, f, snapshot);
    snapshot.copyArraysIn();
    Arrays.fill(f, 2f);
    float[] sent = (float[]) decode(written(snapshot));
    assertEquals(1f, sent[0]);

    FrameBuffer frame = new FrameBuffer(64);
    codec.write(float[].class, f, frame);
    long small = frame.payloadLength() - (long) f.length * 4;
    written(frame);
    assertEquals(small, frame.payloadLength(), "the arrays are no longer part of the buffer");

    FrameBuffer failing = new FrameBuffer(64);
    codec.write(float[].class, f, failing);
    OutputStream broken = new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        throw new IOException("broken");
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        throw new IOException("broken");
      }
    };
    assertThrows(IOException.class, () -> failing.writeFrame(broken, Frames.RESULT, 1, true));
    assertEquals(small, failing.payloadLength(), "a frame that failed to go out keeps no array either");
  }

  private Object decode(byte[] wire) throws IOException {
    Frames.Frame f = Frames.read(new DataInputStream(new ByteArrayInputStream(wire)));
    return codec.read(float[].class, f.payload(), 0, f.length());
  }
}
