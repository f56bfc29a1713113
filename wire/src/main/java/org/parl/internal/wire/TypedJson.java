package org.parl.internal.wire;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.jsontype.NamedType;
import com.fasterxml.jackson.databind.type.LogicalType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * JSON for one family of typed messages: records under a sealed interface annotated with
 * {@code @JsonTypeInfo}, each named on the wire by its simple class name. Decoding is strict, like
 * a hand-written validator: no coercion between strings, numbers and booleans, no fractions for
 * integers, no duplicate keys, no trailing data; the records' compact constructors then bound the
 * values. Every failure is a {@link BadMessageException} that says what was wrong in one sentence.
 * Unknown fields are ignored, so that a newer peer may add some.
 */
public final class TypedJson {

  private static final int MAX_DEPTH = 32;

  private final JsonMapper mapper;
  private final Map<String, Class<?>> types = new TreeMap<>();

  /**
   * @param roots sealed interfaces whose permitted records (at any depth) are the messages, or records of
   *     another family that a message carries as they are (each named by its simple class name too)
   */
  public TypedJson(Class<?>... roots) {
    mapper = JsonMapper.builder()
        .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
        .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
        .build();
    mapper.getFactory().setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build());
    // a string field takes a string only (by default Jackson would read 5 as "5")
    mapper.coercionConfigFor(LogicalType.Textual)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
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
      mapper.registerSubtypes(new NamedType(type, type.getSimpleName()));
    }
  }

  /**
   * Builds the serializers and deserializers of every message type now. Jackson builds them on
   * first use, which costs a few hundred milliseconds in a fresh JVM: call this off the event
   * loop, before the first message.
   */
  public void warmUp() {
    for (Class<?> type : types.values()) {
      // both fetch their root (de)serializer eagerly, and Jackson caches it
      mapper.writerFor(type);
      mapper.readerFor(type);
    }
  }

  /** The names of the message types that are a {@code target}, as they appear in the {@code type} field. */
  public List<String> typeNames(Class<?> target) {
    return types.entrySet().stream().filter(e -> target.isAssignableFrom(e.getValue())).map(Map.Entry::getKey).toList();
  }

  public byte[] encode(Object message) {
    try {
      return mapper.writeValueAsBytes(message);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode " + message.getClass().getSimpleName() + ": " + e.getOriginalMessage(), e);
    }
  }

  public String encodeToString(Object message) {
    try {
      return mapper.writeValueAsString(message);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode " + message.getClass().getSimpleName() + ": " + e.getOriginalMessage(), e);
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
   * field, such as a request id, even when the message as a whole is bad.
   */
  public JsonNode tree(byte[] json, int offset, int length) {
    JsonNode tree;
    try {
      tree = mapper.readTree(json, offset, length);
    } catch (IOException | RuntimeException e) {
      throw bad(e, Object.class);
    }
    if (tree == null || !tree.isObject()) {
      throw new BadMessageException("expected a JSON object, got " + (tree == null || tree.isMissingNode() ? "nothing"
          : abbreviate(tree.getNodeType().name().toLowerCase() + " " + tree)));
    }
    return tree;
  }

  /** Maps a parsed object onto its message type, with every check. */
  public <T> T decode(JsonNode tree, Class<T> type) {
    try {
      return mapper.treeToValue(tree, type);
    } catch (IOException | RuntimeException e) {
      throw bad(e, type);
    }
  }

  /** One sentence for what was wrong; the sender reads it, so no parser internals or positions. */
  private BadMessageException bad(Throwable e, Class<?> target) {
    BadMessageException ours = find(e, BadMessageException.class);
    if (ours != null) {
      return ours;
    }
    IllegalArgumentException refused = find(e, IllegalArgumentException.class);
    if (refused != null && e instanceof JsonMappingException m) {
      // a value that checks itself where it is built (what an actor asks for) says what is wrong with it
      return new BadMessageException((m.getPath().isEmpty() ? "" : "field '" + path(m) + "': ") + refused.getMessage());
    }
    if (e instanceof InvalidTypeIdException t) {
      String id = t.getTypeId();
      // a typed record inside a message is named by its field, and has kinds of its own
      String field = t.getPath().isEmpty() ? null : path(t);
      List<String> kinds = typeNames(t.getBaseType() == null ? target : t.getBaseType().getRawClass());
      return new BadMessageException(id == null
          ? (field == null ? "a message" : "field '" + field + "'") + " needs a \"type\" field naming its kind, one of " + kinds
          : "unknown message type \"" + abbreviate(id) + "\"" + (field == null ? "" : " in field '" + field + "'")
              + "; known types are " + kinds);
    }
    if (e instanceof MismatchedInputException m && !m.getPath().isEmpty()) {
      String field = path(m);
      String why = String.valueOf(m.getOriginalMessage());
      if (why.startsWith("Missing required creator property")) {
        return new BadMessageException("field '" + field + "' is missing");
      }
      if (why.startsWith("Invalid `null` value")) {
        return new BadMessageException("field '" + field + "' must not be null");
      }
      String got = m instanceof InvalidFormatException f ? ", got " + Checks.describe(f.getValue()) : "";
      return new BadMessageException("field '" + field + "' must be " + expected(m.getTargetType()) + got);
    }
    if (e instanceof JsonMappingException m && m.getOriginalMessage() != null
        && m.getOriginalMessage().startsWith("Trailing token")) {
      return new BadMessageException("expected one JSON object, found more after it");
    }
    InputCoercionException c = find(e, InputCoercionException.class);
    if (c != null) {
      // databind wraps it in a JsonMappingException that knows the path
      String field = e instanceof JsonMappingException m && !m.getPath().isEmpty() ? path(m) : currentName(c.getProcessor());
      return new BadMessageException((field == null ? "a number" : "field '" + field + "'") + " is out of range: "
          + abbreviate(firstLine(c.getOriginalMessage())));
    }
    if (e instanceof JacksonException j) {
      // the parser's text may point into the input ("start marker at [Source: ...]"): the sender has no use for that
      String why = firstLine(j.getOriginalMessage()).replaceAll("\\s*\\(?(start marker )?at \\[Source.*$", "");
      return new BadMessageException("not valid JSON: " + abbreviate(why));
    }
    return new BadMessageException("malformed message: " + abbreviate(firstLine(e.getMessage())));
  }

  private static <X extends Throwable> X find(Throwable e, Class<X> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }

  private static String currentName(JsonParser p) {
    try {
      return p == null ? null : p.currentName();
    } catch (IOException e) {
      return null;
    }
  }

  private static String path(JsonMappingException e) {
    StringBuilder b = new StringBuilder();
    for (JsonMappingException.Reference r : e.getPath()) {
      if (r.getFieldName() != null) {
        b.append(b.length() == 0 ? "" : ".").append(r.getFieldName());
      } else if (r.getIndex() >= 0) {
        b.append('[').append(r.getIndex()).append(']');
      }
    }
    return b.toString();
  }

  private static String expected(Class<?> type) {
    if (type == null) {
      return "of another type";
    }
    if (type == int.class || type == long.class || type == short.class || type == Integer.class || type == Long.class) {
      return "an integer";
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

  private static String firstLine(String s) {
    return s == null ? "?" : s.lines().findFirst().orElse("?");
  }

  private static String abbreviate(String s) {
    return s.length() > 120 ? s.substring(0, 120) + "..." : s;
  }
}
