package org.parl.internal.wire;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Maps a parsed JSON object ({@link TypedJson#tree}) onto a record, checking every value's kind
 * against the component's declared type, and says in one sentence, naming the field by its path
 * ({@code resources.cpus}, {@code stack[0].line}), what was wrong.
 */
final class RecordReader {

  /** Where a value sits in the message: null for the message itself. */
  private record Path(Path parent, String field, int index) {

    Path field(String name) {
      return new Path(this, name, -1);
    }

    Path index(int i) {
      return new Path(this, null, i);
    }

    @Override
    public String toString() {
      StringBuilder b = new StringBuilder();
      append(b);
      return b.toString();
    }

    private void append(StringBuilder b) {
      if (parent != null) {
        parent.append(b);
      }
      if (field != null) {
        b.append(b.length() == 0 ? "" : ".").append(field);
      } else if (index >= 0) {
        b.append('[').append(index).append(']');
      }
    }
  }

  private static final Path ROOT = new Path(null, null, -1);

  private final Map<String, Class<?>> types;
  private final Function<Class<?>, List<String>> kindsOf;

  /**
   * @param types the message types known by their wire names
   * @param kindsOf the names of the types that are a given one, for the messages that refuse a name
   */
  RecordReader(Map<String, Class<?>> types, Function<Class<?>, List<String>> kindsOf) {
    this.types = types;
    this.kindsOf = kindsOf;
  }

  Object read(Map<String, Object> tree, Class<?> type) {
    return object(tree, type, ROOT);
  }

  private Object value(Object node, Type type, Path path) {
    if (type instanceof ParameterizedType p) {
      Class<?> raw = (Class<?>) p.getRawType();
      Type[] args = p.getActualTypeArguments();
      if (Map.class.isAssignableFrom(raw)) {
        return node == null ? null : map(node, args[1], path);
      }
      if (Collection.class.isAssignableFrom(raw)) {
        return node == null ? null : collection(node, raw, args[0], path);
      }
      type = raw;
    }
    Class<?> c = (Class<?>) type;
    if (node == null) {
      return c.isPrimitive() ? defaultOf(c) : null;
    }
    if (c == String.class) {
      return node instanceof String ? node : wrong(path, c, node);
    }
    if (c == boolean.class || c == Boolean.class) {
      return node instanceof Boolean ? node : wrong(path, c, node);
    }
    if (c == int.class || c == Integer.class || c == long.class || c == Long.class || c == short.class || c == Short.class) {
      return integer(node, c, path);
    }
    if (c == double.class || c == Double.class) {
      return node instanceof Number n ? n.doubleValue() : wrong(path, c, node);
    }
    if (c.isEnum()) {
      return constant(node, c, path);
    }
    if (c.isRecord() || c.isInterface()) {
      return node instanceof Map<?, ?> ? object(node, c, path) : wrong(path, c, node);
    }
    throw new IllegalStateException("a message holds a " + c.getName() + ", which " + TypedJson.class.getSimpleName()
        + " does not read");
  }

  private Object object(Object node, Class<?> type, Path path) {
    @SuppressWarnings("unchecked")
    Map<String, Object> fields = (Map<String, Object>) node;
    Class<?> target = type;
    if (RecordShape.isTyped(type)) {
      target = named(fields.get("type"), type, path);
    } else if (!type.isRecord()) {
      throw new IllegalStateException(type + " is neither a record nor a typed message");
    }
    RecordShape shape = RecordShape.of(target);
    List<RecordShape.Component> components = shape.components();
    Object[] values = new Object[components.size()];
    String missing = null;
    for (int i = 0; i < values.length; i++) {
      RecordShape.Component c = components.get(i);
      Path at = path.field(c.wireName());
      if (!fields.containsKey(c.wireName())) {
        if (c.required() && missing == null) {
          missing = at.toString();
        }
        values[i] = c.raw().isPrimitive() ? defaultOf(c.raw()) : null;
        continue;
      }
      Object v = fields.get(c.wireName());
      if (v == null && c.required()) {
        throw new BadMessageException("field '" + at + "' must not be null");
      }
      values[i] = value(v, c.type(), at);
    }
    if (missing != null) {
      throw new BadMessageException("field '" + missing + "' is missing");
    }
    try {
      return shape.construct(values);
    } catch (InvocationTargetException e) {
      throw refused(e.getCause(), path);
    }
  }

  /** The message type a {@code type} field names, which must be {@code declared} or one of its kinds. */
  private Class<?> named(Object id, Class<?> declared, Path path) {
    if (id instanceof Number || id instanceof Boolean) {
      id = id.toString(); // read as the name it spells, which no type has
    }
    Class<?> named = id instanceof String name ? types.get(name) : null;
    if (named != null && declared.isAssignableFrom(named)) {
      return named;
    }
    String field = path == ROOT ? null : path.toString();
    if (!(id instanceof String name)) {
      throw new BadMessageException((field == null ? "a message" : "field '" + field + "'")
          + " needs a \"type\" field naming its kind, one of " + kindsOf.apply(declared));
    }
    throw new BadMessageException("unknown message type \"" + TypedJson.abbreviate(name) + "\""
        + (field == null ? "" : " in field '" + field + "'") + "; known types are " + kindsOf.apply(declared));
  }

  /** What a compact constructor (or an enum's creator) refused, said for the sender. */
  private static BadMessageException refused(Throwable why, Path path) {
    if (why instanceof BadMessageException ours) {
      return ours;
    }
    if (why instanceof IllegalArgumentException refused) {
      // a value that checks itself where it is built (what an actor asks for) says what is wrong with it
      return new BadMessageException((path == ROOT ? "" : "field '" + path + "': ") + refused.getMessage());
    }
    if (why instanceof RuntimeException e) {
      throw e; // a bug of the record's own, not the sender's
    }
    throw new IllegalStateException(why);
  }

  private static Object integer(Object node, Class<?> c, Path path) {
    if (!(node instanceof Long) && !(node instanceof BigInteger)) {
      return wrong(path, c, node);
    }
    boolean isInt = c == int.class || c == Integer.class;
    boolean isShort = c == short.class || c == Short.class;
    long min = isInt ? Integer.MIN_VALUE : isShort ? Short.MIN_VALUE : Long.MIN_VALUE;
    long max = isInt ? Integer.MAX_VALUE : isShort ? Short.MAX_VALUE : Long.MAX_VALUE;
    // the parser gives a Long whenever one holds the value, so a BigInteger is out of every kind's range
    if (node instanceof BigInteger || (Long) node < min || (Long) node > max) {
      throw new BadMessageException("field '" + path + "' is out of range: Numeric value (" + TypedJson.abbreviate(node.toString())
          + ") out of range of " + (isInt ? "int" : isShort ? "short" : "long") + " (" + min + " - " + max + ")");
    }
    long v = (Long) node;
    return isInt ? (Object) (int) v : isShort ? (Object) (short) v : (Object) v;
  }

  private static Object constant(Object node, Class<?> c, Path path) {
    if (!(node instanceof String s)) {
      return wrong(path, c, node);
    }
    Object constant;
    try {
      constant = RecordShape.constant(c, s);
    } catch (InvocationTargetException e) {
      throw refused(e.getCause(), path);
    }
    return constant != null ? constant : wrong(path, c, node);
  }

  private Object map(Object node, Type valueType, Path path) {
    if (!(node instanceof Map<?, ?> m)) {
      return wrong(path, Map.class, node);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    m.forEach((k, v) -> out.put((String) k, value(v, valueType, path.field((String) k))));
    return out;
  }

  private Object collection(Object node, Class<?> raw, Type elementType, Path path) {
    if (!(node instanceof List<?> list)) {
      return wrong(path, List.class, node);
    }
    Collection<Object> out = Set.class.isAssignableFrom(raw) ? new LinkedHashSet<>() : new ArrayList<>(list.size());
    for (int i = 0; i < list.size(); i++) {
      out.add(value(list.get(i), elementType, path.index(i)));
    }
    return out;
  }

  private static Object defaultOf(Class<?> primitive) {
    if (primitive == boolean.class) {
      return false;
    }
    if (primitive == long.class) {
      return 0L;
    }
    if (primitive == double.class) {
      return 0.0;
    }
    return primitive == short.class ? (Object) (short) 0 : (Object) 0;
  }

  /** @param got the value found: quoted back when it is a string, number or boolean */
  private static Object wrong(Path path, Class<?> type, Object got) {
    boolean scalar = got instanceof String || got instanceof Number || got instanceof Boolean;
    // an integer is named as the JSON parser sees it: within int's range, an Integer
    Object shown = got instanceof Long l && l == (int) (long) l ? (Object) (int) (long) l : got;
    throw new BadMessageException("field '" + path + "' must be " + expected(type) + (scalar ? ", got " + Checks.describe(shown) : ""));
  }

  private static String expected(Class<?> type) {
    if (type == int.class || type == long.class || type == short.class || type == Integer.class || type == Long.class
        || type == Short.class) {
      return "an integer";
    }
    if (type == double.class || type == Double.class) {
      return "a number";
    }
    if (type == String.class) {
      return "a string";
    }
    if (type == boolean.class || type == Boolean.class) {
      return "true or false";
    }
    if (type.isEnum()) {
      List<String> names = new ArrayList<>();
      for (Object c : type.getEnumConstants()) {
        names.add(c.toString());
      }
      return "one of " + names;
    }
    if (Collection.class.isAssignableFrom(type) || type.isArray()) {
      return "an array";
    }
    return "an object";
  }
}
