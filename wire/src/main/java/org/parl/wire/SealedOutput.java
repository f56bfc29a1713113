package org.parl.wire;

import java.io.IOException;
import java.io.OutputStream;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Objects;
import javax.crypto.Cipher;

/**
 * The sending half of a sealed data connection ({@link FrameKeys}): the bytes written are cut into
 * records of at most {@link #RECORD} bytes, each encrypted and authenticated with AES-GCM under the
 * next sequence number and sent as {@code int32 length | ciphertext | tag}. A record is sent when
 * it is full or on {@link #flush()}, so this stream is also the connection's send buffer: a frame
 * written without a flush waits in it, as it would in a {@code BufferedOutputStream}.
 *
 * <p>The bytes are encrypted straight from the caller's array into the record, so sealing costs
 * no copy beyond the one a send buffer makes anyway; large arrays written in pieces
 * ({@link FrameBuffer}) are sealed piece by piece. Not thread-safe: writers serialise their access.
 */
public final class SealedOutput extends OutputStream {

  /** The largest plaintext of one record: big enough to amortise a record's cost, small enough to stay in cache. */
  public static final int RECORD = 256 * 1024;
  static final int HEADER = 4;

  private final OutputStream out;
  private final RecordCipher seal;
  private Cipher cipher;
  private byte[] record = new byte[HEADER + 4096];
  private int pos;
  private int plain;

  SealedOutput(OutputStream out, byte[] key) {
    this.out = out;
    this.seal = new RecordCipher(key, Cipher.ENCRYPT_MODE);
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    while (len > 0) {
      if (cipher == null) {
        cipher = seal.next();
        pos = HEADER;
        plain = 0;
      }
      int n = Math.min(len, RECORD - plain);
      room(pos + n + 2 * RecordCipher.TAG);
      try {
        pos += cipher.update(b, off, n, record, pos);
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("cannot seal a record: " + e.getMessage(), e);
      }
      plain += n;
      off += n;
      len -= n;
      if (plain == RECORD) {
        send();
      }
    }
  }

  /** Sends the record being filled, if any, then flushes the stream below. */
  @Override
  public void flush() throws IOException {
    if (cipher != null) {
      send();
    }
    out.flush();
  }

  @Override
  public void close() throws IOException {
    try {
      flush();
    } finally {
      out.close();
    }
  }

  /** How many records were sent (for tests). */
  long records() {
    return seal.records();
  }

  private void send() throws IOException {
    try {
      pos += cipher.doFinal(record, pos);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot seal a record: " + e.getMessage(), e);
    }
    cipher = null;
    int length = pos - HEADER;
    record[0] = (byte) (length >>> 24);
    record[1] = (byte) (length >>> 16);
    record[2] = (byte) (length >>> 8);
    record[3] = (byte) length;
    out.write(record, 0, pos);
  }

  private void room(int needed) {
    if (needed > record.length) {
      int most = HEADER + RECORD + 2 * RecordCipher.TAG;
      record = Arrays.copyOf(record, Math.min(most, Math.max(needed, 2 * record.length)));
    }
  }
}
