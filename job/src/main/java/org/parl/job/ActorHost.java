package org.parl.job;

import static org.parl.internal.wire.ErrorKind.INTERNAL;
import static org.parl.internal.wire.ErrorKind.INVALID;
import static org.parl.internal.wire.ErrorKind.REMOTE;
import static org.parl.internal.wire.ErrorKind.SERIALIZATION;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.parl.internal.wire.DataMessage;
import org.parl.internal.wire.FrameBuffer;
import org.parl.internal.wire.Frames;
import org.parl.internal.wire.RemoteMethod;
import org.parl.internal.wire.SharedLink;
import org.parl.internal.wire.Signatures;
import org.parl.internal.wire.ValueCodec;

/**
 * The actor inside a job process: constructs the instance from the shipped code, and serves calls
 * and field reads/writes, one at a time in arrival order.
 */
final class ActorHost {

  private final ValueCodec codec = new ValueCodec();
  private final ActorCode code;
  private Class<?> implClass;
  /** The loader of the actor's classes, once created: a reused process checks that it is released. */
  private ClassLoader loader;
  private Object instance;
  private ActorFields fields;
  private final Map<String, RemoteMethod> methods = new HashMap<>();
  /** The process's GPU identity check, or null for none. */
  private final GpuIdentityCheck gpuCheck;

  ActorHost(BlobStore blobs, Path workDir, Libraries libraries) {
    this(blobs, workDir, libraries, null);
  }

  ActorHost(BlobStore blobs, Path workDir, Libraries libraries, GpuIdentityCheck gpuCheck) {
    this.code = new ActorCode(blobs, workDir, libraries);
    this.gpuCheck = gpuCheck;
  }

  String describe() {
    return implClass == null ? "no actor yet" : implClass.getName();
  }

  /** The actor's class loader, or null when no actor was created. */
  ClassLoader loader() {
    return loader;
  }

  /** CREATE payload: {@code name = JSON header (a DataMessage.Create), rest = constructor arguments}. */
  void create(Frames.Frame frame) throws CallFailure {
    if (instance != null) {
      throw new CallFailure(INVALID, "this job already runs an actor of " + implClass.getName());
    }
    if (gpuCheck != null && gpuCheck.applies()) {
      GpuIdentityCheck.Result identity = gpuCheck.forCreate();
      if (identity.outcome() == GpuIdentityCheck.Outcome.FAILED) {
        // not the request's fault nor the actor's: the process does not run on the GPUs it was given
        throw new CallFailure(INTERNAL, identity.message());
      }
    }
    DataMessage.Create req = CreateRequest.of(frame);
    loader = code.loader(req.code());
    code.placeFiles(req.files());
    Class<?> api;
    try {
      api = Class.forName(req.api(), false, loader);
      implClass = Class.forName(req.impl(), true, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new CallFailure(INVALID, "cannot load the actor's code: " + e, e);
    }
    if (!api.isInterface() || !api.isAssignableFrom(implClass)) {
      throw new CallFailure(INVALID, req.impl() + " does not implement the interface " + req.api());
    }
    Constructor<?> ctor = null;
    for (Constructor<?> c : implClass.getConstructors()) {
      if (Signatures.of(c).equals(req.ctor())) {
        ctor = c;
      }
    }
    if (ctor == null) {
      throw new CallFailure(INVALID, req.impl() + " has no public constructor " + req.ctor());
    }
    Object[] args = readArgs(ctor.getGenericParameterTypes(), frame, "the constructor", null);
    Thread.currentThread().setContextClassLoader(loader);
    try {
      instance = ctor.newInstance(args);
    } catch (InvocationTargetException e) {
      throw new CallFailure(REMOTE, "the constructor of " + req.impl() + " threw " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException | IllegalArgumentException e) {
      throw new CallFailure(INVALID, "cannot construct " + req.impl() + ": " + e, e);
    }
    fields = new ActorFields(instance, codec);
    for (Method m : api.getMethods()) {
      if (!Modifier.isStatic(m.getModifiers())) {
        m.setAccessible(true);
        methods.put(Signatures.of(m), RemoteMethod.of(m));
      }
    }
  }

  /**
   * CALL payload: {@code name = method signature, rest = arguments}; the result goes to {@code out}.
   *
   * @param shared where arguments may lie (null: none)
   * @param lease where large arrays of the result go when there is room ({@link SharedLink.Lease#NONE}: in {@code out})
   */
  void call(Frames.Frame frame, FrameBuffer out, SharedLink shared, SharedLink.Lease lease) throws CallFailure {
    requireActor();
    String key = name(frame);
    RemoteMethod m = methods.get(key);
    if (m == null) {
      throw new CallFailure(INVALID, implClass.getName() + " has no remote method " + key);
    }
    Object[] args = readArgs(m.parameters(), frame, key, shared);
    Object result;
    try {
      result = m.method().invoke(instance, args);
    } catch (InvocationTargetException e) {
      Throwable t = e.getCause();
      if (t instanceof OutOfMemoryError oom) {
        throw oom;
      }
      throw new CallFailure(REMOTE, implClass.getSimpleName() + "." + key + " threw " + t, t);
    } catch (IllegalAccessException | IllegalArgumentException e) {
      throw new CallFailure(INVALID, "cannot call " + key + ": " + e, e);
    }
    if (m.returnsNothing()) {
      return;
    }
    try {
      codec.write(m.result(), result, out, lease);
    } catch (IOException | RuntimeException e) {
      throw new CallFailure(SERIALIZATION, "the result of " + key + " cannot be serialised: " + e.getMessage(), e);
    }
  }

  /** GET payload: the field name; its value, encoded by the field's declared type, goes to {@code out}. */
  void get(Frames.Frame frame, FrameBuffer out, SharedLink.Lease lease) throws CallFailure {
    requireActor();
    fields.get(new String(frame.payload(), 0, frame.length(), StandardCharsets.UTF_8), out, lease);
  }

  /** SET payload: {@code name = field name, rest = the new value}. */
  void set(Frames.Frame frame, SharedLink shared) throws CallFailure {
    requireActor();
    String field = name(frame);
    int offset;
    try {
      offset = Frames.restOffset(frame.payload(), frame.length());
    } catch (IOException e) {
      throw new CallFailure(INVALID, e.getMessage());
    }
    fields.set(field, frame.payload(), offset, frame.length(), shared);
  }

  private Object[] readArgs(Type[] types, Frames.Frame frame, String what, SharedLink shared) throws CallFailure {
    try {
      return codec.readAll(types, frame.payload(), Frames.restOffset(frame.payload(), frame.length()), frame.length(),
          shared);
    } catch (IOException | RuntimeException e) {
      throw new CallFailure(SERIALIZATION, "the arguments of " + what + " cannot be read as "
          + Arrays.stream(types).map(Type::getTypeName).toList() + ": " + e.getMessage(), e);
    }
  }

  private void requireActor() throws CallFailure {
    if (instance == null) {
      throw new CallFailure(INVALID, "no actor has been created in this job");
    }
  }

  private static String name(Frames.Frame frame) throws CallFailure {
    try {
      return Frames.name(frame.payload(), frame.length());
    } catch (IOException e) {
      throw new CallFailure(INVALID, e.getMessage());
    }
  }
}
