package org.parl.wire;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * A frame being built: the payload is written after room left for the frame header, so that the
 * finished frame leaves in a single write without being copied again. Sized up front from a hint
 * (large arrays would otherwise be copied at every doubling of the buffer).
 */
public final class FrameBuffer extends OutputStream {

  private byte[] buf;
  private int count = Frames.HEADER;

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

  private void ensure(int more) {
    if (count + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(count + more, buf.length + (buf.length >> 1)));
    }
  }

  /** Empties the buffer for the next frame, letting go of a very large one. */
  public void reset(int keepAtMost) {
    count = Frames.HEADER;
    if (buf.length > keepAtMost) {
      buf = new byte[Frames.HEADER + 32];
    }
  }

  /** Where the next byte goes. */
  public int position() {
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

  /** The buffer itself, valid until the next write. */
  public byte[] array() {
    return buf;
  }

  public int payloadLength() {
    return count - Frames.HEADER;
  }

  /** Fills in the header and writes the whole frame; callers serialise access to {@code out}. */
  public void writeFrame(OutputStream out, byte type, long id, boolean flush) throws IOException {
    if (payloadLength() > Frames.MAX_PAYLOAD) {
      throw new IOException("payload of " + payloadLength() + " bytes is over the limit of " + Frames.MAX_PAYLOAD);
    }
    Frames.header(buf, type, id, payloadLength());
    out.write(buf, 0, count);
    if (flush) {
      out.flush();
    }
  }
}
