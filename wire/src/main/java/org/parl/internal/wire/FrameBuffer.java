package org.parl.internal.wire;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A frame being built: the payload is written after room left for the frame header, so that the
 * finished frame leaves in a single write without being copied again. Sized up front from a hint
 * (large arrays would otherwise be copied at every doubling of the buffer).
 *
 * <p>The elements of large primitive arrays at the end of a payload ({@link Tail}) are not copied
 * into the buffer: {@link #writeFrame} copies them from the arrays themselves, a piece at a time,
 * into a small buffer that stays in the CPU's cache: staging megabytes in the frame first would
 * copy them once more, through memory rather than the cache. Anything
 * written after them, and {@link #array()} and {@link #position()}, copy them in first, so the bytes
 * are always in order; a frame handed to another thread to write copies them in too
 * ({@link #copyArraysIn}), so that a caller who changes an array after the call returned changes
 * nothing that was sent.
 */
public final class FrameBuffer extends OutputStream {

  /** The piece of a {@link Tail} copied at a time: small enough to stay in cache, a multiple of every element width. */
  static final int PIECE = 256 * 1024;

  /** Bytes at the end of the payload that are copied from their source only when the frame is written. */
  interface Tail {
    int bytes();

    /** Copies this tail's bytes from {@code from} on into {@code into} (little-endian, all its remaining bytes). */
    void copy(ByteBuffer into, int from);
  }

  private byte[] buf;
  private int count = Frames.HEADER;
  private final List<Tail> tails = new ArrayList<>(2);
  private long tailBytes;
  private byte[] piece;

  public FrameBuffer(int payloadHint) {
    buf = new byte[Frames.HEADER + Math.max(32, payloadHint)];
  }

  /** A frame holding an already encoded payload. */
  public static FrameBuffer of(byte[] payload) {
    FrameBuffer b = new FrameBuffer(payload.length);
    b.write(payload, 0, payload.length);
    return b;
  }

  public static FrameBuffer empty() {
    return new FrameBuffer(0);
  }

  /** Writes a {@link Frames#named} prefix: {@code uint16 length | name}. */
  public FrameBuffer name(byte[] utf8) {
    if (utf8.length > 0xFFFF) {
      throw new IllegalArgumentException("name too long: " + utf8.length + " bytes");
    }
    write(utf8.length >>> 8);
    write(utf8.length);
    write(utf8, 0, utf8.length);
    return this;
  }

  @Override
  public void write(int b) {
    ensure(1);
    buf[count++] = (byte) b;
  }

  @Override
  public void write(byte[] b, int off, int len) {
    ensure(len);
    System.arraycopy(b, off, buf, count, len);
    count += len;
  }

  /** Appends {@code tail} to the payload, to be copied from its source when the frame is written. */
  void attach(Tail tail) {
    tails.add(tail);
    tailBytes += tail.bytes();
  }

  /** Copies the arrays still referenced into the buffer: for a frame written later, or by another thread. */
  public void copyArraysIn() {
    if (tails.isEmpty()) {
      return;
    }
    List<Tail> pending = List.copyOf(tails);
    tails.clear();
    tailBytes = 0;
    for (Tail t : pending) {
      int at = extend(t.bytes());
      t.copy(ByteBuffer.wrap(buf, at, t.bytes()).slice().order(ByteOrder.LITTLE_ENDIAN), 0);
    }
  }

  private void ensure(int more) {
    copyArraysIn();
    if (count + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(count + more, buf.length + (buf.length >> 1)));
    }
  }

  /** Empties the buffer for the next frame, letting go of a very large one. */
  public void reset(int keepAtMost) {
    count = Frames.HEADER;
    tails.clear();
    tailBytes = 0;
    if (buf.length > keepAtMost) {
      buf = new byte[Frames.HEADER + 32];
    }
  }

  /** Where the next byte goes. */
  public int position() {
    copyArraysIn();
    return count;
  }

  /** Writes a big-endian int at an earlier position (a length known only afterwards). */
  public void putInt(int at, int value) {
    buf[at] = (byte) (value >>> 24);
    buf[at + 1] = (byte) (value >>> 16);
    buf[at + 2] = (byte) (value >>> 8);
    buf[at + 3] = (byte) value;
  }

  /** Makes room for {@code n} bytes to be filled in place; returns where they start in {@link #array()}. */
  public int extend(int n) {
    ensure(n);
    int at = count;
    count += n;
    return at;
  }

  /** The buffer itself, with every array copied in, valid until the next write. */
  public byte[] array() {
    copyArraysIn();
    return buf;
  }

  public long payloadLength() {
    return count - Frames.HEADER + tailBytes;
  }

  /**
   * Fills in the header and writes the whole frame, the arrays of its tail straight from the arrays
   * in pieces; then lets go of them. Callers serialise access to {@code out}.
   */
  public void writeFrame(OutputStream out, byte type, long id, boolean flush) throws IOException {
    long length = payloadLength();
    if (length > Frames.MAX_PAYLOAD) {
      throw new IOException("payload of " + length + " bytes is over the limit of " + Frames.MAX_PAYLOAD);
    }
    Frames.header(buf, type, id, (int) length);
    try {
      out.write(buf, 0, count);
      for (Tail t : tails) {
        writeTail(out, t);
      }
    } finally {
      tails.clear();
      tailBytes = 0;
    }
    if (flush) {
      out.flush();
    }
  }

  private void writeTail(OutputStream out, Tail t) throws IOException {
    if (piece == null) {
      piece = new byte[PIECE];
    }
    for (int from = 0; from < t.bytes(); from += PIECE) {
      int n = Math.min(PIECE, t.bytes() - from);
      t.copy(ByteBuffer.wrap(piece, 0, n).slice().order(ByteOrder.LITTLE_ENDIAN), from);
      out.write(piece, 0, n);
    }
  }
}
