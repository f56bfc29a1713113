package org.parl.internal.wire;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.annotation.JsonValue;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;

/**
 * How one record travels in {@link TypedJson}: its components in declaration order, each under its
 * name or the one its {@code @JsonProperty} gives, {@link Required} or not; whether it is a typed
 * message (a {@code @JsonTypeInfo} interface above it: its {@code type} field names it); whether
 * its nulls are left out ({@code @JsonInclude(NON_NULL)}). Read once per class.
 */
final class RecordShape {

  /** One component: {@code wireName} in JSON, read with {@code accessor}. */
  record Component(String wireName, Method accessor, Type type, Class<?> raw, boolean required) {

    Object get(Record r) {
      try {
        return accessor.invoke(r);
      } catch (IllegalAccessException | InvocationTargetException e) {
        throw new IllegalStateException("cannot read " + accessor + ": " + e, e);
      }
    }
  }

  private static final ClassValue<RecordShape> SHAPES = new ClassValue<>() {
    @Override
    protected RecordShape computeValue(Class<?> type) {
      return new RecordShape(type);
    }
  };

  /** An enum's {@code @JsonValue} method, or null: it writes by name. */
  private static final ClassValue<Method> LABELS = new ClassValue<>() {
    @Override
    protected Method computeValue(Class<?> type) {
      return annotated(type, JsonValue.class, false);
    }
  };

  /** An enum's static {@code @JsonCreator} method, or null: it reads by name. */
  private static final ClassValue<Method> CREATORS = new ClassValue<>() {
    @Override
    protected Method computeValue(Class<?> type) {
      return annotated(type, JsonCreator.class, true);
    }
  };

  private final List<Component> components;
  private final Constructor<?> constructor;
  private final boolean typed;
  private final boolean omitsNulls;

  private RecordShape(Class<?> type) {
    if (!type.isRecord()) {
      throw new IllegalArgumentException(type.getName() + " is not a record");
    }
    List<Component> list = new ArrayList<>();
    RecordComponent[] rcs = type.getRecordComponents();
    Class<?>[] raw = new Class<?>[rcs.length];
    for (int i = 0; i < rcs.length; i++) {
      RecordComponent rc = rcs[i];
      Method accessor = rc.getAccessor();
      accessor.setAccessible(true);
      JsonProperty renamed = accessor.getAnnotation(JsonProperty.class);
      String name = renamed != null && !renamed.value().isEmpty() ? renamed.value() : rc.getName();
      list.add(new Component(name, accessor, rc.getGenericType(), rc.getType(), accessor.isAnnotationPresent(Required.class)));
      raw[i] = rc.getType();
    }
    try {
      constructor = type.getDeclaredConstructor(raw);
      constructor.setAccessible(true);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(type + " has no canonical constructor", e);
    }
    components = List.copyOf(list);
    typed = isTyped(type);
    if (typed && list.stream().anyMatch(c -> c.wireName().equals("type"))) {
      throw new IllegalStateException(type + " is a typed message: its \"type\" field names it and cannot be a component");
    }
    JsonInclude include = type.getAnnotation(JsonInclude.class);
    omitsNulls = include != null && include.value() == JsonInclude.Include.NON_NULL;
  }

  static RecordShape of(Class<?> type) {
    return SHAPES.get(type);
  }

  List<Component> components() {
    return components;
  }

  /** Whether its JSON names it in a {@code type} field, and must when it is read. */
  boolean typed() {
    return typed;
  }

  boolean omitsNulls() {
    return omitsNulls;
  }

  /**
   * Builds the record from its components' values.
   *
   * @throws InvocationTargetException holding what its compact constructor threw
   */
  Object construct(Object[] values) throws InvocationTargetException {
    try {
      return constructor.newInstance(values);
    } catch (InstantiationException | IllegalAccessException e) {
      throw new IllegalStateException("cannot build " + constructor.getDeclaringClass() + ": " + e, e);
    }
  }

  /** Whether a message of {@code type} (a record or an interface) is named by a {@code type} field. */
  static boolean isTyped(Class<?> type) {
    return TYPED.get(type);
  }

  private static final ClassValue<Boolean> TYPED = new ClassValue<>() {
    @Override
    protected Boolean computeValue(Class<?> type) {
      if (type.isAnnotationPresent(JsonTypeInfo.class)) {
        return true;
      }
      for (Class<?> up : type.getInterfaces()) {
        if (get(up)) {
          return true;
        }
      }
      return type.getSuperclass() != null && get(type.getSuperclass());
    }
  };

  /** An enum constant as written: its {@code @JsonValue}, else its name. */
  static String label(Enum<?> e) {
    Method label = LABELS.get(e.getDeclaringClass());
    if (label == null) {
      return e.name();
    }
    try {
      return String.valueOf(label.invoke(e));
    } catch (IllegalAccessException | InvocationTargetException x) {
      throw new IllegalStateException("cannot write " + e + ": " + x, x);
    }
  }

  /**
   * The constant of {@code type} that {@code text} names, or null when none does.
   *
   * @throws InvocationTargetException holding what the enum's {@code @JsonCreator} threw
   */
  static Object constant(Class<?> type, String text) throws InvocationTargetException {
    Method creator = CREATORS.get(type);
    if (creator != null) {
      try {
        return creator.invoke(null, text);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException("cannot call " + creator + ": " + e, e);
      }
    }
    for (Object c : type.getEnumConstants()) {
      if (((Enum<?>) c).name().equals(text)) {
        return c;
      }
    }
    return null;
  }

  private static Method annotated(Class<?> type, Class<? extends java.lang.annotation.Annotation> mark, boolean isStatic) {
    for (Method m : type.getDeclaredMethods()) {
      if (m.isAnnotationPresent(mark) && Modifier.isStatic(m.getModifiers()) == isStatic) {
        m.setAccessible(true);
        return m;
      }
    }
    return null;
  }
}
