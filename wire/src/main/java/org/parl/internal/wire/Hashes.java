package org.parl.internal.wire;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Content hashes that name shipped code and files. */
public final class Hashes {

  private Hashes() {}

  public static String sha256(byte[] data, int offset, int length) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(data, offset, length);
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  public static String sha256(byte[] data) {
    return sha256(data, 0, data.length);
  }

  /** The hash of a file's content, read in pieces (blocking). */
  public static String sha256(java.nio.file.Path file) throws java.io.IOException {
    try (java.io.InputStream in = java.nio.file.Files.newInputStream(file)) {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      byte[] buf = new byte[64 * 1024];
      for (int n; (n = in.read(buf)) > 0; ) {
        md.update(buf, 0, n);
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * What changes whenever a file's content does: its inode, size and change time (which no process
   * of the user can set back), so a file hashed once need not be hashed again while this is equal.
   */
  public static Object stamp(java.nio.file.Path file) throws java.io.IOException {
    java.util.Map<String, Object> a = java.nio.file.Files.readAttributes(file, "unix:ino,size,ctime");
    return java.util.List.of(a.get("ino"), a.get("size"), String.valueOf(a.get("ctime")));
  }

  /** True for a well-formed hash: 64 lowercase hex digits, so it is safe as a file name. */
  public static boolean valid(String hash) {
    if (hash == null || hash.length() != 64) {
      return false;
    }
    for (int i = 0; i < 64; i++) {
      char c = hash.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        return false;
      }
    }
    return true;
  }
}
