package org.parl.internal.wire;

import java.io.IOException;
import java.io.OutputStream;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Objects;
import javax.crypto.Cipher;

/**
 * The sending half of a sealed data connection ({@link FrameKeys}): the bytes written are cut into
 * records of at most {@link #RECORD} bytes, each encrypted and authenticated with AES-GCM under the
 * next sequence number and laid out as {@code int32 length | ciphertext | tag}. Sealed records are
 * sent together, in writes of up to {@link #SEND} bytes, and on {@link #flush()}, so this stream is
 * also the connection's send buffer: a frame written without a flush waits in it, as it would in a
 * {@code BufferedOutputStream}.
 *
 * <p>The bytes are encrypted straight from the caller's array into the send buffer, so sealing costs
 * no copy beyond the one a send buffer makes anyway; large arrays written in pieces
 * ({@link FrameBuffer}) are sealed piece by piece.
 *
 * <p>Records are small (8 KiB) for the JIT's sake, not the wire's: the JDK's AES-GCM is slow until
 * the JIT has compiled it with its intrinsics, which it does after a count of records, not of bytes.
 * With large records a new process would move a great deal of data at the slow speed before that;
 * with small ones the JIT compiles it within the first megabytes, and once compiled both sizes run
 * at the same speed. Not thread-safe: writers serialise their access.
 */
public final class SealedOutput extends OutputStream {

  /** The largest plaintext of one record. */
  public static final int RECORD = 8 * 1024;
  /** Sealed records are sent when this many bytes of them wait (or on flush). */
  static final int SEND = 256 * 1024;
  static final int HEADER = 4;

  private final OutputStream out;
  private final RecordCipher seal;
  private Cipher cipher;
  /** Sealed records waiting to be sent, then the record being filled (from {@link #start}). */
  private byte[] pending = new byte[HEADER + 4096];
  private int pos;
  private int start;
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
        start = pos;
        pos += HEADER;
        plain = 0;
      }
      int n = Math.min(len, RECORD - plain);
      room(pos + n + 2 * RecordCipher.TAG);
      try {
        pos += cipher.update(b, off, n, pending, pos);
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("cannot seal a record: " + e.getMessage(), e);
      }
      plain += n;
      off += n;
      len -= n;
      if (plain == RECORD) {
        seal();
        if (pos >= SEND) {
          send();
        }
      }
    }
  }

  /** Seals the record being filled, if any, sends every sealed record, then flushes the stream below. */
  @Override
  public void flush() throws IOException {
    if (cipher != null) {
      seal();
    }
    send();
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

  /** Ends the record being filled: its tag, then its length in front. */
  private void seal() {
    try {
      pos += cipher.doFinal(pending, pos);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot seal a record: " + e.getMessage(), e);
    }
    cipher = null;
    int length = pos - start - HEADER;
    pending[start] = (byte) (length >>> 24);
    pending[start + 1] = (byte) (length >>> 16);
    pending[start + 2] = (byte) (length >>> 8);
    pending[start + 3] = (byte) length;
  }

  private void send() throws IOException {
    if (pos > 0) {
      out.write(pending, 0, pos);
      pos = 0;
    }
  }

  private void room(int needed) {
    if (needed > pending.length) {
      int most = SEND + HEADER + RECORD + 2 * RecordCipher.TAG;
      pending = Arrays.copyOf(pending, Math.min(most, Math.max(needed, 2 * pending.length)));
    }
  }
}
