package org.parl.job;

import static org.parl.internal.wire.ErrorKind.ATTRIBUTE;
import static org.parl.internal.wire.ErrorKind.SERIALIZATION;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.parl.internal.wire.FrameBuffer;
import org.parl.internal.wire.SharedLink;
import org.parl.internal.wire.ValueCodec;

/**
 * Remote reads and writes of an actor's instance fields (its own and inherited ones, static ones
 * excluded), each value encoded by the field's declared type. An unknown name is answered with the
 * names that do exist.
 */
final class ActorFields {

  private final Object instance;
  private final ValueCodec codec;

  ActorFields(Object instance, ValueCodec codec) {
    this.instance = instance;
    this.codec = codec;
  }

  /**
   * Writes the field's value to {@code out}, its large arrays to {@code lease} when there is room
   * ({@link SharedLink.Lease#NONE}: none).
   */
  void get(String name, FrameBuffer out, SharedLink.Lease lease) throws CallFailure {
    Field f = field(name);
    try {
      codec.write(f.getGenericType(), f.get(instance), out, lease);
    } catch (IllegalAccessException e) {
      throw new CallFailure(ATTRIBUTE, "cannot read field '" + f.getName() + "': " + e.getMessage());
    } catch (IOException | RuntimeException e) {
      throw new CallFailure(SERIALIZATION, "field '" + f.getName() + "' cannot be serialised: " + e.getMessage(), e);
    }
  }

  /** Sets the field to the value encoded in {@code bytes[offset, end)}, whose large arrays may lie in {@code shared}. */
  void set(String name, byte[] bytes, int offset, int end, SharedLink shared) throws CallFailure {
    Field f = field(name);
    if (Modifier.isFinal(f.getModifiers())) {
      throw new CallFailure(ATTRIBUTE, "field '" + f.getName() + "' of " + instance.getClass().getSimpleName() + " is final");
    }
    Object value;
    try {
      value = codec.read(f.getGenericType(), bytes, offset, end, shared);
    } catch (IOException | RuntimeException e) {
      throw new CallFailure(SERIALIZATION, "the value for field '" + f.getName() + "' does not fit its type "
          + f.getGenericType().getTypeName() + ": " + e.getMessage(), e);
    }
    try {
      f.set(instance, value);
    } catch (IllegalAccessException | IllegalArgumentException e) {
      throw new CallFailure(ATTRIBUTE, "cannot write field '" + f.getName() + "': " + e.getMessage());
    }
  }

  private Field field(String name) throws CallFailure {
    List<String> names = new ArrayList<>();
    for (Class<?> c = instance.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers()) || f.isSynthetic()) {
          continue;
        }
        if (f.getName().equals(name)) {
          f.setAccessible(true);
          return f;
        }
        names.add(f.getName());
      }
    }
    throw new CallFailure(ATTRIBUTE, instance.getClass().getSimpleName() + " has no field '" + name + "'"
        + (names.isEmpty() ? "" : "; its fields are " + String.join(", ", names)));
  }
}
