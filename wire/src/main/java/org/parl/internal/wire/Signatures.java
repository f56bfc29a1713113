package org.parl.internal.wire;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;

/** Names of methods and constructors that both ends compute the same way, such as {@code add(int)}. */
public final class Signatures {

  private Signatures() {}

  public static String of(Method m) {
    return m.getName() + params(m.getParameterTypes());
  }

  public static String of(Constructor<?> c) {
    return params(c.getParameterTypes());
  }

  private static String params(Class<?>[] types) {
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < types.length; i++) {
      if (i > 0) {
        sb.append(',');
      }
      sb.append(types[i].getName());
    }
    return sb.append(')').toString();
  }
}
