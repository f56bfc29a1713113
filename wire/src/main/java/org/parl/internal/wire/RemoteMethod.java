package org.parl.internal.wire;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;

/**
 * A method of an actor's interface as both ends of a call see it: its signature (what a CALL
 * names) and the declared types its arguments and result are encoded with. Computed once per
 * method, not per call ({@link Method#getGenericParameterTypes()} copies an array each time).
 */
public record RemoteMethod(Method method, String signature, byte[] signatureUtf8, Type[] parameters, Type result) {

  public static RemoteMethod of(Method m) {
    String signature = Signatures.of(m);
    return new RemoteMethod(m, signature, signature.getBytes(StandardCharsets.UTF_8), m.getGenericParameterTypes(),
        m.getGenericReturnType());
  }

  public boolean returnsNothing() {
    return method.getReturnType() == void.class;
  }
}
