package org.parl.internal.wire;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.security.GeneralSecurityException;
import java.util.Objects;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;

/**
 * The receiving half of a sealed data connection ({@link SealedOutput} sends): reads one record at
 * a time, checks its tag under the next sequence number and only then hands out its bytes. A record
 * that fails (an altered byte, a record injected, replayed, reordered, or of an impossible length)
 * ends the stream with an {@link IntegrityException}; nothing of it, nor anything after it, is
 * ever returned.
 *
 * <p>A read that wants at least a whole record's bytes (a large payload) gets them decrypted straight
 * into its own array; smaller reads are served from a buffer. Not thread-safe: one reader at a time.
 */
public final class SealedInput extends InputStream {

  private final InputStream in;
  private final RecordCipher open;
  private byte[] record = new byte[4096];
  private byte[] plain = new byte[4096];
  private int at;
  private int end;
  private boolean failed;

  SealedInput(InputStream in, byte[] key) {
    this.in = in;
    this.open = new RecordCipher(key, Cipher.DECRYPT_MODE);
  }

  @Override
  public int read() throws IOException {
    while (at == end) {
      int n = nextRecord();
      if (n < 0) {
        return -1;
      }
      openInto(plain(n), 0, n);
    }
    return plain[at++] & 0xFF;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    while (at == end) {
      int n = nextRecord();
      if (n < 0) {
        return -1;
      }
      if (n - RecordCipher.TAG <= len && n > RecordCipher.TAG) {
        return openStraight(b, off, n);
      }
      openInto(plain(n), 0, n);
    }
    int n = Math.min(len, end - at);
    System.arraycopy(plain, at, b, off, n);
    at += n;
    return n;
  }

  /** Whether opened bytes are waiting to be read. */
  public boolean hasBuffered() {
    return at < end;
  }

  @Override
  public int available() {
    return end - at;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }

  /** How many records were opened (for tests). */
  long records() {
    return open.records();
  }

  /** Reads the next record into {@link #record}; returns its length (ciphertext and tag), or -1 at a clean end. */
  private int nextRecord() throws IOException {
    if (failed) {
      throw new IntegrityException("the stream already failed");
    }
    int b0 = in.read();
    if (b0 < 0) {
      return -1;
    }
    int length = b0 << 24 | readByte() << 16 | readByte() << 8 | readByte();
    if (length < RecordCipher.TAG || length > SealedOutput.RECORD + RecordCipher.TAG) {
      throw fail("a record of " + length + " bytes");
    }
    if (record.length < length) {
      record = new byte[Math.min(SealedOutput.RECORD + RecordCipher.TAG, Math.max(length, 2 * record.length))];
    }
    for (int got = 0; got < length; ) {
      int n = in.read(record, got, length - got);
      if (n < 0) {
        throw new EOFException("the connection ended inside a record");
      }
      got += n;
    }
    return length;
  }

  private int readByte() throws IOException {
    int b = in.read();
    if (b < 0) {
      throw new EOFException("the connection ended inside a record");
    }
    return b;
  }

  private byte[] plain(int length) {
    if (plain.length < length) {
      plain = new byte[Math.min(SealedOutput.RECORD + RecordCipher.TAG, Math.max(length, 2 * plain.length))];
    }
    return plain;
  }

  private void openInto(byte[] into, int off, int length) throws IOException {
    at = off;
    end = off + decrypt(into, off, length);
  }

  private int openStraight(byte[] into, int off, int length) throws IOException {
    return decrypt(into, off, length);
  }

  private int decrypt(byte[] into, int off, int length) throws IOException {
    Cipher cipher = open.next();
    try {
      return cipher.doFinal(record, 0, length, into, off);
    } catch (AEADBadTagException e) {
      throw fail("record " + (open.records() - 1) + " does not verify");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot open a record: " + e.getMessage(), e);
    }
  }

  private IntegrityException fail(String detail) {
    failed = true;
    return new IntegrityException(detail);
  }
}
