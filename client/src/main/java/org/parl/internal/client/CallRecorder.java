package org.parl.internal.client;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Turns {@code actor.call(c -> c.add(5))} into "method add(int) with argument 5": the function is
 * applied to a recording stand-in of the interface that remembers the one call made on it.
 */
final class CallRecorder {

  record Invocation(Method method, Object[] args) {}

  private static final ThreadLocal<Invocation> LAST = new ThreadLocal<>();
  private static final Map<Class<?>, Object> RECORDERS = new ConcurrentHashMap<>();

  private CallRecorder() {}

  static <T> Invocation record(Class<T> api, Function<? super T, ?> fn) {
    @SuppressWarnings("unchecked")
    T recorder = (T) RECORDERS.computeIfAbsent(api, CallRecorder::newRecorder);
    LAST.remove();
    fn.apply(recorder);
    Invocation inv = LAST.get();
    LAST.remove();
    if (inv == null) {
      throw new IllegalArgumentException("the function given to call(...) must call one method of " + api.getSimpleName()
          + " on its argument, e.g. actor.call(a -> a.method(args))");
    }
    return inv;
  }

  private static Object newRecorder(Class<?> api) {
    return Proxy.newProxyInstance(api.getClassLoader(), new Class<?>[] {api}, (proxy, method, args) -> {
      if (method.getDeclaringClass() == Object.class) {
        throw new IllegalArgumentException("call(...) records methods of " + api.getSimpleName() + ", not " + method.getName());
      }
      if (LAST.get() != null) {
        throw new IllegalArgumentException("the function given to call(...) must call exactly one method of " + api.getSimpleName());
      }
      LAST.set(new Invocation(method, args == null ? new Object[0] : args));
      return zero(method.getReturnType());
    });
  }

  private static Object zero(Class<?> type) {
    if (!type.isPrimitive() || type == void.class) {
      return null;
    }
    if (type == boolean.class) {
      return false;
    }
    if (type == char.class) {
      return '\0';
    }
    if (type == byte.class) {
      return (byte) 0;
    }
    if (type == short.class) {
      return (short) 0;
    }
    if (type == int.class) {
      return 0;
    }
    if (type == long.class) {
      return 0L;
    }
    if (type == float.class) {
      return 0f;
    }
    return 0d;
  }
}
