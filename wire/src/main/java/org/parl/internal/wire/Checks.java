package org.parl.internal.wire;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.parl.internal.security.SharedSecret;

/**
 * The checks the compact constructors of typed messages make, each failing with a
 * {@link BadMessageException} that names the field and says what was expected. Types are already
 * checked by the decoder ({@link TypedJson}); these bound the values.
 */
public final class Checks {

  /** Longest identifier, host name or other short string a message may carry. */
  public static final int MAX_STRING = 1024;
  /** Longest free text a message may carry, such as an error message or why a job ended. */
  public static final int MAX_TEXT = 64 * 1024;
  /** Largest id in an id list (GPU ids). */
  public static final int MAX_ID = 1_000_000;

  private Checks() {}

  /** A non-blank string of at most {@value #MAX_STRING} characters. */
  public static String name(String field, String value) {
    if (value == null || value.isBlank() || value.length() > MAX_STRING) {
      throw new BadMessageException("field '" + field + "' must be a non-empty string of at most " + MAX_STRING
          + " characters, got " + describe(value));
    }
    return value;
  }

  /** Like {@link #name(String, String)}, with {@code fallback} when absent. */
  public static String name(String field, String value, String fallback) {
    return value == null ? fallback : name(field, value);
  }

  /** Any string of at most {@code max} characters, or null. */
  public static String text(String field, String value, int max) {
    if (value != null && value.length() > max) {
      throw new BadMessageException("field '" + field + "' has " + value.length() + " characters, at most " + max + " allowed");
    }
    return value;
  }

  public static int range(String field, int value, int min, int max) {
    return (int) range(field, (long) value, min, max);
  }

  public static long range(String field, long value, long min, long max) {
    if (value < min || value > max) {
      throw new BadMessageException("field '" + field + "' must be between " + min + " and " + max + ", got " + value);
    }
    return value;
  }

  /**
   * A nonce, proof or secret: {@value SharedSecret#BYTES} bytes in hex, as {@link DataAuth#bytes32}
   * reads them. The value is not quoted back: a malformed secret may still be most of one.
   */
  public static String hex32(String field, String value) {
    if (DataAuth.bytes32(value) == null) {
      throw new BadMessageException("field '" + field + "' must be " + SharedSecret.BYTES + " bytes as " + 2 * SharedSecret.BYTES
          + " hex digits");
    }
    return value;
  }

  /** A value that must be there (objects; primitives are marked {@link Required}). */
  public static <T> T present(String field, T value) {
    if (value == null) {
      throw new BadMessageException("field '" + field + "' is missing");
    }
    return value;
  }

  /** A list of at most {@code maxSize} non-null entries (absent means empty), as an immutable copy. */
  public static <T> List<T> list(String field, List<T> value, int maxSize) {
    if (value == null) {
      return List.of();
    }
    if (value.size() > maxSize) {
      throw new BadMessageException("field '" + field + "' has " + value.size() + " entries, at most " + maxSize + " allowed");
    }
    for (T e : value) {
      if (e == null) {
        throw new BadMessageException("field '" + field + "' holds a null entry");
      }
    }
    return List.copyOf(value);
  }

  /** A list of distinct ids between 0 and {@value #MAX_ID} (such as GPU ids), required. */
  public static List<Integer> ids(String field, List<Integer> value, int maxSize) {
    List<Integer> ids = list(field, present(field, value), maxSize);
    Set<Integer> seen = new HashSet<>();
    for (int id : ids) {
      if (id < 0 || id > MAX_ID) {
        throw new BadMessageException("field '" + field + "' must hold integers between 0 and " + MAX_ID + ", got " + id);
      }
      if (!seen.add(id)) {
        throw new BadMessageException("field '" + field + "' lists " + id + " twice");
      }
    }
    return ids;
  }

  /** Strings of at most {@value #MAX_STRING} characters each, such as job ids; absent means empty. */
  public static List<String> names(String field, List<String> value, int maxSize) {
    List<String> out = list(field, value, maxSize);
    for (String s : out) {
      name(field, s);
    }
    return out;
  }

  static String describe(Object v) {
    if (v == null) {
      return "nothing";
    }
    String s = String.valueOf(v);
    if (s.length() > 60) {
      s = s.substring(0, 60) + "...";
    }
    return v.getClass().getSimpleName() + " \"" + s + "\"";
  }
}
