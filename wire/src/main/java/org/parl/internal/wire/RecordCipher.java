package org.parl.internal.wire;

import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-GCM for one direction of one connection, with the record's sequence number as its nonce:
 * each record is sealed (or opened) under {@code 0x00000000 | int64 sequence}, counted from 0 on
 * both ends, so a record that arrives anywhere but at its own place in the stream fails to open.
 * The key is used in this direction only, so no nonce is ever used twice under it.
 */
final class RecordCipher {

  /** Bytes of a GCM tag. */
  static final int TAG = 16;

  private final Cipher cipher;
  private final SecretKeySpec key;
  private final int mode;
  private final byte[] nonce = new byte[12];
  private long sequence;

  /** @param mode {@link Cipher#ENCRYPT_MODE} to seal, {@link Cipher#DECRYPT_MODE} to open */
  RecordCipher(byte[] key, int mode) {
    this.key = new SecretKeySpec(key, "AES");
    this.mode = mode;
    try {
      this.cipher = Cipher.getInstance("AES/GCM/NoPadding");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES/GCM is missing from this Java runtime", e);
    }
  }

  /** The cipher, set up for the next record. */
  Cipher next() {
    long s = sequence++;
    if (sequence == 0) {
      throw new IllegalStateException("a data connection ran out of record numbers");
    }
    for (int i = 0; i < 8; i++) {
      nonce[4 + i] = (byte) (s >>> (56 - 8 * i));
    }
    try {
      cipher.init(mode, key, new GCMParameterSpec(8 * TAG, nonce));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot set up AES/GCM: " + e.getMessage(), e);
    }
    return cipher;
  }

  /** How many records this direction has sealed or opened. */
  long records() {
    return sequence;
  }
}
