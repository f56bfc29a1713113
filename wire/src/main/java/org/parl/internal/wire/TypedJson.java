package org.parl.internal.wire;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * JSON for one family of typed messages: records under a sealed interface annotated with
 * {@code @JsonTypeInfo}, each named on the wire by its simple class name in a {@code type} field
 * written first. Decoding is strict, like a hand-written validator: no coercion between strings,
 * numbers and booleans, no fractions for integers, no duplicate keys, no trailing data; the
 * records' compact constructors then bound the values. Every failure is a
 * {@link BadMessageException} that says what was wrong in one sentence. Unknown fields are ignored,
 * so that a newer peer may add some.
 *
 * <p>Built on Jackson's streaming parser and generator alone ({@link RecordShape} maps records by
 * reflection): the databind layer, hundreds of classes and a serializer built per type, would be
 * loaded before the first message, on the path of every program's connect and every job's start.
 */
public final class TypedJson {

  private static final int MAX_DEPTH = 32;
  private static final JsonFactory FACTORY = JsonFactory.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
      .build();

  private final Map<String, Class<?>> types = new TreeMap<>();
  private final RecordReader reader = new RecordReader(types, this::typeNames);

  /**
   * @param roots sealed interfaces whose permitted records (at any depth) are the messages, or records of
   *     another family that a message carries as they are (each named by its simple class name too)
   */
  public TypedJson(Class<?>... roots) {
    for (Class<?> root : roots) {
      register(root);
    }
  }

  private void register(Class<?> type) {
    if (type.isSealed()) {
      for (Class<?> sub : type.getPermittedSubclasses()) {
        register(sub);
      }
    } else if (type.isRecord()) {
      Class<?> clash = types.putIfAbsent(type.getSimpleName(), type);
      if (clash != null && clash != type) {
        throw new IllegalStateException(type + " and " + clash + " would have the same name on the wire");
      }
    }
  }

  /**
   * Reads the shape of every message type now, and loads the parser's and generator's classes,
   * so that the first message does not: call this off the event loop, before the first message.
   */
  public void warmUp() {
    types.values().forEach(RecordShape::of);
    tree(new byte[] {'{', '}'}, 0, 2);
    encode(List.of());
  }

  /** The names of the message types that are a {@code target}, as they appear in the {@code type} field. */
  public List<String> typeNames(Class<?> target) {
    return types.entrySet().stream().filter(e -> target.isAssignableFrom(e.getValue())).map(Map.Entry::getKey).toList();
  }

  public byte[] encode(Object message) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      write(g, message);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    return out.toByteArray();
  }

  public String encodeToString(Object message) {
    return text(message);
  }

  /** A message, or a parsed JSON value ({@link #tree}'s objects, lists, strings, numbers, booleans or null), as JSON text. */
  public static String text(Object parsed) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      write(g, parsed);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private static void write(JsonGenerator g, Object v) throws IOException {
    if (v == null) {
      g.writeNull();
    } else if (v instanceof String s) {
      g.writeString(s);
    } else if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
      g.writeNumber(((Number) v).longValue());
    } else if (v instanceof BigInteger b) {
      g.writeNumber(b);
    } else if (v instanceof Double || v instanceof Float) {
      g.writeNumber(((Number) v).doubleValue());
    } else if (v instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (v instanceof Enum<?> e) {
      g.writeString(RecordShape.label(e));
    } else if (v instanceof Collection<?> c) {
      g.writeStartArray();
      for (Object e : c) {
        write(g, e);
      }
      g.writeEndArray();
    } else if (v instanceof Map<?, ?> m) {
      g.writeStartObject();
      for (Map.Entry<?, ?> e : m.entrySet()) {
        g.writeFieldName(String.valueOf(e.getKey()));
        write(g, e.getValue());
      }
      g.writeEndObject();
    } else if (v instanceof Record r) {
      RecordShape shape = RecordShape.of(r.getClass());
      g.writeStartObject();
      if (shape.typed()) {
        g.writeStringField("type", r.getClass().getSimpleName());
      }
      for (RecordShape.Component c : shape.components()) {
        Object value = c.get(r);
        if (value != null || !shape.omitsNulls()) {
          g.writeFieldName(c.wireName());
          write(g, value);
        }
      }
      g.writeEndObject();
    } else {
      throw new IllegalStateException("cannot encode a " + v.getClass().getName() + " as JSON: messages hold records,"
          + " lists, maps, strings, numbers, booleans and enums");
    }
  }

  /** Decodes one message of {@code type} from UTF-8 JSON. */
  public <T> T decode(byte[] json, int offset, int length, Class<T> type) {
    return decode(tree(json, offset, length), type);
  }

  public <T> T decode(byte[] json, Class<T> type) {
    return decode(json, 0, json.length, type);
  }

  /**
   * Parses one JSON object (syntax only, with the limits above), so that a caller can look at a
   * field, such as a request id, even when the message as a whole is bad. Its values are maps (in
   * the order received), lists, strings, {@code Long} or {@code BigInteger} integers, {@code Double}
   * fractions, booleans and nulls.
   */
  public Map<String, Object> tree(byte[] json, int offset, int length) {
    Object tree;
    try (JsonParser p = FACTORY.createParser(json, offset, length)) {
      JsonToken first = p.nextToken();
      if (first == null) {
        throw new BadMessageException("expected a JSON object, got nothing");
      }
      tree = parse(p, first);
      if (!(tree instanceof Map)) {
        throw new BadMessageException("expected a JSON object, got " + abbreviate(kind(tree) + " " + text(tree)));
      }
      if (p.nextToken() != null) {
        throw new BadMessageException("expected one JSON object, found more after it");
      }
    } catch (JacksonException e) {
      // the parser's text may point into the input ("start marker at [Source: ...]"): the sender has no use for that
      String why = firstLine(e.getOriginalMessage()).replaceAll("\\s*\\(?(start marker )?at \\[Source.*$", "");
      throw new BadMessageException("not valid JSON: " + abbreviate(why));
    } catch (IOException e) {
      throw new BadMessageException("not valid JSON: " + abbreviate(firstLine(e.getMessage())));
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> object = (Map<String, Object>) tree;
    return object;
  }

  private static Object parse(JsonParser p, JsonToken t) throws IOException {
    return switch (t) {
      case START_OBJECT -> {
        Map<String, Object> object = new LinkedHashMap<>();
        for (JsonToken n = p.nextToken(); n != JsonToken.END_OBJECT; n = p.nextToken()) {
          String name = p.currentName();
          object.put(name, parse(p, p.nextToken()));
        }
        yield object;
      }
      case START_ARRAY -> {
        List<Object> array = new ArrayList<>();
        for (JsonToken n = p.nextToken(); n != JsonToken.END_ARRAY; n = p.nextToken()) {
          array.add(parse(p, n));
        }
        yield array;
      }
      case VALUE_STRING -> p.getText();
      case VALUE_NUMBER_INT -> p.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? p.getBigIntegerValue() : (Object) p.getLongValue();
      case VALUE_NUMBER_FLOAT -> p.getDoubleValue();
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      case VALUE_NULL -> null;
      default -> throw new BadMessageException("not valid JSON: unexpected " + t);
    };
  }

  /** Maps a parsed object onto its message type, with every check. */
  public <T> T decode(Map<String, Object> tree, Class<T> type) {
    return type.cast(reader.read(tree, type));
  }

  static String kind(Object parsed) {
    if (parsed == null) {
      return "null";
    }
    if (parsed instanceof Map) {
      return "object";
    }
    if (parsed instanceof List) {
      return "array";
    }
    if (parsed instanceof String) {
      return "string";
    }
    return parsed instanceof Boolean ? "boolean" : "number";
  }

  private static String firstLine(String s) {
    return s == null ? "?" : s.lines().findFirst().orElse("?");
  }

  static String abbreviate(String s) {
    return s.length() > 120 ? s.substring(0, 120) + "..." : s;
  }
}
