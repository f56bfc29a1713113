package org.parl.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.parl.wire.FrameBuffer;
import org.parl.wire.Frames;
import org.parl.wire.RemoteMethod;
import org.parl.wire.Signatures;
import org.parl.wire.ValueCodec;

/**
 * The actor inside a job process: loads the shipped code in its own class loader, constructs the
 * instance, and serves calls and field reads/writes, one at a time in arrival order.
 */
final class ActorHost {

  private static final ObjectMapper JSON = JobJson.MAPPER;
  private static final int MAX_FILE_NAME = 1024;
  private static final int WARM_UP_ROUNDS = 40;

  private final ValueCodec codec = new ValueCodec();
  private final BlobStore blobs;
  private final Path workDir;
  private ClassLoader loader;
  private Class<?> implClass;
  private Object instance;
  private final Map<String, RemoteMethod> methods = new HashMap<>();

  ActorHost(BlobStore blobs, Path workDir) {
    this.blobs = blobs;
    this.workDir = workDir;
  }

  /**
   * Runs what serving a client involves (the codec over common types, a HELLO with a class path's
   * worth of blobs, a class loader, an error) while the process waits for an actor, often enough
   * for the JIT to compile it: the actor's creation and first calls then run compiled code.
   */
  void warmUp() {
    try {
      java.lang.reflect.Type[] types = {int.class, String.class, float[].class, List.class, Map.class};
      Object[] values = {1, "x", new float[] {1f}, List.of(1L), Map.of("k", 2.0)};
      List<String> hashes = new java.util.ArrayList<>();
      for (int i = 0; i < 64; i++) {
        hashes.add(String.format("%064x", i));
      }
      byte[] hello = JSON.writeValueAsBytes(Map.of("token", "t", "protocol", Frames.PROTOCOL, "blobs", hashes));
      URL[] urls = new URL[hashes.size()];
      for (int i = 0; i < urls.length; i++) {
        urls[i] = blobs.path(hashes.get(i)).toUri().toURL();
      }
      for (int i = 0; i < WARM_UP_ROUNDS; i++) {
        codec.readAll(types, codec.writeAll(types, values), 0);
        ClientSession.answerHello(JSON.readValue(hello, Map.class), blobs, java.io.OutputStream.nullOutputStream(), "warm-up", i);
        ErrorPayload.of(new CallFailure("invalid", "warm-up " + i, new IllegalStateException()));
      }
      try (URLClassLoader l = new URLClassLoader("warm-up", urls, ActorHost.class.getClassLoader())) {
        Class.forName(ActorHost.class.getName(), false, l);
      }
    } catch (IOException | ClassNotFoundException e) {
      JobMain.log("warm-up failed: " + e.getMessage());
    }
  }

  String describe() {
    return implClass == null ? "no actor yet" : implClass.getName();
  }

  /**
   * CREATE payload: {@code name = JSON header, rest = constructor arguments}. The header names the
   * interface, the class, the constructor, the code blobs and the files for the working directory.
   */
  void create(Frames.Frame frame) throws CallFailure {
    byte[] payload = frame.payload();
    int length = frame.length();
    if (instance != null) {
      throw new CallFailure("invalid", "this job already runs an actor of " + implClass.getName());
    }
    Map<?, ?> header;
    try {
      header = JSON.readValue(Frames.name(payload, length), Map.class);
    } catch (IOException e) {
      throw new CallFailure("invalid", "unreadable create request: " + e.getMessage());
    }
    String apiName = string(header, "api");
    String implName = string(header, "impl");
    String ctorKey = string(header, "ctor");
    loader = new URLClassLoader("actor", codeUrls(header.get("code")), ActorHost.class.getClassLoader());
    placeFiles(header.get("files"));
    Class<?> api;
    try {
      api = Class.forName(apiName, false, loader);
      implClass = Class.forName(implName, true, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new CallFailure("invalid", "cannot load the actor's code: " + e, e);
    }
    if (!api.isInterface() || !api.isAssignableFrom(implClass)) {
      throw new CallFailure("invalid", implName + " does not implement the interface " + apiName);
    }
    Constructor<?> ctor = null;
    for (Constructor<?> c : implClass.getConstructors()) {
      if (Signatures.of(c).equals(ctorKey)) {
        ctor = c;
      }
    }
    if (ctor == null) {
      throw new CallFailure("invalid", implName + " has no public constructor " + ctorKey);
    }
    Object[] args = readArgs(ctor.getGenericParameterTypes(), frame, "the constructor");
    Thread.currentThread().setContextClassLoader(loader);
    try {
      instance = ctor.newInstance(args);
    } catch (InvocationTargetException e) {
      throw new CallFailure("remote", "the constructor of " + implName + " threw " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException | IllegalArgumentException e) {
      throw new CallFailure("invalid", "cannot construct " + implName + ": " + e, e);
    }
    for (Method m : api.getMethods()) {
      if (!Modifier.isStatic(m.getModifiers())) {
        m.setAccessible(true);
        methods.put(Signatures.of(m), RemoteMethod.of(m));
      }
    }
  }

  /** CALL payload: {@code name = method signature, rest = arguments}; the result goes to {@code out}. */
  void call(Frames.Frame frame, FrameBuffer out) throws CallFailure {
    requireActor();
    String key = name(frame);
    RemoteMethod m = methods.get(key);
    if (m == null) {
      throw new CallFailure("invalid", implClass.getName() + " has no remote method " + key);
    }
    Object[] args = readArgs(m.parameters(), frame, key);
    Object result;
    try {
      result = m.method().invoke(instance, args);
    } catch (InvocationTargetException e) {
      Throwable t = e.getCause();
      if (t instanceof OutOfMemoryError oom) {
        throw oom;
      }
      throw new CallFailure("remote", implClass.getSimpleName() + "." + key + " threw " + t, t);
    } catch (IllegalAccessException | IllegalArgumentException e) {
      throw new CallFailure("invalid", "cannot call " + key + ": " + e, e);
    }
    if (m.returnsNothing()) {
      return;
    }
    try {
      codec.write(m.result(), result, out);
    } catch (IOException | RuntimeException e) {
      throw new CallFailure("serialization", "the result of " + key + " cannot be serialised: " + e.getMessage(), e);
    }
  }

  /** GET payload: the field name; its value, encoded by the field's declared type, goes to {@code out}. */
  void get(Frames.Frame frame, FrameBuffer out) throws CallFailure {
    requireActor();
    Field f = field(new String(frame.payload(), 0, frame.length(), java.nio.charset.StandardCharsets.UTF_8));
    try {
      codec.write(f.getGenericType(), f.get(instance), out);
    } catch (IllegalAccessException e) {
      throw new CallFailure("attribute", "cannot read field '" + f.getName() + "': " + e.getMessage());
    } catch (IOException | RuntimeException e) {
      throw new CallFailure("serialization", "field '" + f.getName() + "' cannot be serialised: " + e.getMessage(), e);
    }
  }

  /** SET payload: {@code name = field name, rest = the new value}. */
  void set(Frames.Frame frame) throws CallFailure {
    requireActor();
    Field f = field(name(frame));
    if (Modifier.isFinal(f.getModifiers())) {
      throw new CallFailure("attribute", "field '" + f.getName() + "' of " + implClass.getSimpleName() + " is final");
    }
    Object value;
    try {
      value = codec.read(f.getGenericType(), frame.payload(), Frames.restOffset(frame.payload(), frame.length()), frame.length());
    } catch (IOException | RuntimeException e) {
      throw new CallFailure("serialization", "the value for field '" + f.getName() + "' does not fit its type "
          + f.getGenericType().getTypeName() + ": " + e.getMessage(), e);
    }
    try {
      f.set(instance, value);
    } catch (IllegalAccessException | IllegalArgumentException e) {
      throw new CallFailure("attribute", "cannot write field '" + f.getName() + "': " + e.getMessage());
    }
  }

  private Field field(String name) throws CallFailure {
    List<String> names = new ArrayList<>();
    for (Class<?> c = implClass; c != null && c != Object.class; c = c.getSuperclass()) {
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
    throw new CallFailure("attribute", implClass.getSimpleName() + " has no field '" + name + "'"
        + (names.isEmpty() ? "" : "; its fields are " + String.join(", ", names)));
  }

  private Object[] readArgs(java.lang.reflect.Type[] types, Frames.Frame frame, String what) throws CallFailure {
    try {
      return codec.readAll(types, frame.payload(), Frames.restOffset(frame.payload(), frame.length()), frame.length());
    } catch (IOException | RuntimeException e) {
      throw new CallFailure("serialization", "the arguments of " + what + " cannot be read as "
          + java.util.Arrays.stream(types).map(java.lang.reflect.Type::getTypeName).toList() + ": " + e.getMessage(), e);
    }
  }

  private URL[] codeUrls(Object code) throws CallFailure {
    if (!(code instanceof List<?> hashes)) {
      throw new CallFailure("invalid", "the create request lists no code");
    }
    List<URL> urls = new ArrayList<>();
    for (Object h : hashes) {
      if (!(h instanceof String hash) || !blobs.has(hash)) {
        throw new CallFailure("invalid", "code blob " + h + " was not shipped to this job");
      }
      try {
        urls.add(blobs.path(hash).toUri().toURL());
      } catch (java.net.MalformedURLException e) {
        throw new CallFailure("invalid", e.getMessage());
      }
    }
    return urls.toArray(URL[]::new);
  }

  /** Copies the distributed files into the working directory, refusing names that leave it. */
  private void placeFiles(Object files) throws CallFailure {
    if (files == null) {
      return;
    }
    if (!(files instanceof List<?> list)) {
      throw new CallFailure("invalid", "'files' must be a list");
    }
    for (Object o : list) {
      if (!(o instanceof Map<?, ?> f) || !(f.get("name") instanceof String name) || !(f.get("hash") instanceof String hash)) {
        throw new CallFailure("invalid", "each distributed file needs a name and a hash");
      }
      Path target = safeTarget(name);
      if (!blobs.has(hash)) {
        throw new CallFailure("invalid", "distributed file " + name + " was not shipped");
      }
      try {
        Files.createDirectories(target.getParent());
        Files.copy(blobs.path(hash), target, StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException e) {
        throw new CallFailure("invalid", "cannot place distributed file " + name + ": " + e.getMessage());
      }
    }
  }

  private Path safeTarget(String name) throws CallFailure {
    if (name.isEmpty() || name.length() > MAX_FILE_NAME || name.indexOf('\0') >= 0) {
      throw new CallFailure("invalid", "bad distributed file name");
    }
    Path base = workDir.toAbsolutePath().normalize();
    Path p = Path.of(name);
    Path target = base.resolve(p).normalize();
    if (p.isAbsolute() || !target.startsWith(base) || target.equals(base)) {
      throw new CallFailure("invalid", "distributed file name '" + name + "' leaves the working directory");
    }
    return target;
  }

  private void requireActor() throws CallFailure {
    if (instance == null) {
      throw new CallFailure("invalid", "no actor has been created in this job");
    }
  }

  private static String name(Frames.Frame frame) throws CallFailure {
    try {
      return Frames.name(frame.payload(), frame.length());
    } catch (IOException e) {
      throw new CallFailure("invalid", e.getMessage());
    }
  }

  private static String string(Map<?, ?> m, String key) throws CallFailure {
    if (m.get(key) instanceof String s && !s.isEmpty()) {
      return s;
    }
    throw new CallFailure("invalid", "the create request lacks '" + key + "'");
  }
}
