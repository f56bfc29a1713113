package org.parl.cluster;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads fields of a JSON message from another node, failing with a {@link BadMessageException}
 * that names the field and what was expected. Every message a node receives goes through here.
 */
public final class Fields {

  private Fields() {}

  public static JsonObject object(Object body) {
    if (body instanceof JsonObject o) {
      return o;
    }
    throw new BadMessageException("expected a JSON object, got " + describe(body));
  }

  public static String string(JsonObject o, String name) {
    Object v = o.getValue(name);
    if (v instanceof String s && !s.isBlank() && s.length() <= 1024) {
      return s;
    }
    throw new BadMessageException("field '" + name + "' must be a non-empty string, got " + describe(v));
  }

  public static String optionalString(JsonObject o, String name, String fallback) {
    return o.getValue(name) == null ? fallback : string(o, name);
  }

  public static int integer(JsonObject o, String name, int min, int max) {
    Object v = o.getValue(name);
    if (v instanceof Integer || v instanceof Long || v instanceof Short) {
      long n = ((Number) v).longValue();
      if (n >= min && n <= max) {
        return (int) n;
      }
      throw new BadMessageException("field '" + name + "' must be between " + min + " and " + max + ", got " + n);
    }
    throw new BadMessageException("field '" + name + "' must be an integer, got " + describe(v));
  }

  public static int optionalInteger(JsonObject o, String name, int min, int max, int fallback) {
    return o.getValue(name) == null ? fallback : integer(o, name, min, max);
  }

  public static long longValue(JsonObject o, String name, long min, long max) {
    Object v = o.getValue(name);
    if (v instanceof Integer || v instanceof Long) {
      long n = ((Number) v).longValue();
      if (n >= min && n <= max) {
        return n;
      }
      throw new BadMessageException("field '" + name + "' must be between " + min + " and " + max + ", got " + n);
    }
    throw new BadMessageException("field '" + name + "' must be an integer, got " + describe(v));
  }

  /** A list of distinct non-negative integers, such as GPU ids. */
  public static List<Integer> idList(JsonObject o, String name, int maxSize) {
    Object v = o.getValue(name);
    if (!(v instanceof JsonArray a)) {
      throw new BadMessageException("field '" + name + "' must be an array of integers, got " + describe(v));
    }
    if (a.size() > maxSize) {
      throw new BadMessageException("field '" + name + "' has " + a.size() + " entries, at most " + maxSize + " allowed");
    }
    List<Integer> ids = new ArrayList<>(a.size());
    for (Object e : a) {
      if (!(e instanceof Integer i) || i < 0 || i > 1_000_000) {
        throw new BadMessageException("field '" + name + "' must hold non-negative integers, got " + describe(e));
      }
      if (ids.contains(i)) {
        throw new BadMessageException("field '" + name + "' lists " + i + " twice");
      }
      ids.add(i);
    }
    return ids;
  }

  public static JsonArray optionalArray(JsonObject o, String name) {
    Object v = o.getValue(name);
    if (v == null) {
      return new JsonArray();
    }
    if (v instanceof JsonArray a) {
      return a;
    }
    throw new BadMessageException("field '" + name + "' must be an array, got " + describe(v));
  }

  static String describe(Object v) {
    if (v == null) {
      return "nothing";
    }
    String s = String.valueOf(v);
    if (s.length() > 60) {
      s = s.substring(0, 60) + "...";
    }
    return v.getClass().getSimpleName() + " " + s;
  }
}
