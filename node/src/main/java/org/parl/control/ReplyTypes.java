package org.parl.control;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;

/** The reply type of each request class, read once from its {@code implements Request<R>}. */
final class ReplyTypes {

  private static final ClassValue<Class<?>> OF = new ClassValue<>() {
    @Override
    protected Class<?> computeValue(Class<?> type) {
      for (Type t : type.getGenericInterfaces()) {
        if (t instanceof ParameterizedType p && p.getRawType() == Request.class
            && p.getActualTypeArguments()[0] instanceof Class<?> reply) {
          return reply;
        }
      }
      throw new IllegalStateException(type + " must implement Request<R> with a concrete reply type");
    }
  };

  private ReplyTypes() {}

  static <R extends ControlReply> Class<R> of(Request<R> request) {
    @SuppressWarnings("unchecked") // R is the argument the request's class gives Request, read above
    Class<R> type = (Class<R>) OF.get(request.getClass());
    return type;
  }
}
