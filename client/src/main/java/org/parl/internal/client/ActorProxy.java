package org.parl.internal.client;

import io.vertx.core.Context;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Optional;

/**
 * The blocking proxy of an actor handle: each call of the interface waits for its answer (or for
 * the handle's timeout) and throws what the remote call failed with; {@code equals},
 * {@code hashCode} and {@code toString} stay local.
 */
record ActorProxy(RemoteActorImpl<?> actor, long timeoutMs) implements InvocationHandler {

  /** @param timeoutMs the calls' timeout, 0 for none, -1 for the client's default */
  static <T> T create(RemoteActorImpl<?> actor, Class<T> api, long timeoutMs) {
    return api.cast(Proxy.newProxyInstance(api.getClassLoader(), new Class<?>[] {api}, new ActorProxy(actor, timeoutMs)));
  }

  /** The actor behind {@code proxy}, if it is one of these proxies. */
  static Optional<RemoteActorImpl<?>> actorOf(Object proxy) {
    if (proxy != null && Proxy.isProxyClass(proxy.getClass()) && Proxy.getInvocationHandler(proxy) instanceof ActorProxy h) {
      return Optional.of(h.actor());
    }
    return Optional.empty();
  }

  @Override
  public Object invoke(Object p, Method m, Object[] args) {
    if (m.getDeclaringClass() == Object.class) {
      return switch (m.getName()) {
        case "equals" -> p == args[0];
        case "hashCode" -> System.identityHashCode(p);
        default -> actor.toString();
      };
    }
    if (Context.isOnEventLoopThread()) {
      throw new IllegalStateException("a blocking actor proxy was called on an event loop, which must never block: "
          + "use RemoteActor.call(...) there");
    }
    return actor.invokeBlocking(m, args == null ? new Object[0] : args, timeoutMs);
  }
}
