package org.parl.client;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.parl.ActorLostException;
import org.parl.InvalidRequestException;
import org.parl.ParlException;
import org.parl.RemoteActor;
import org.parl.RemoteSerializationException;
import org.parl.wire.FrameBuffer;
import org.parl.wire.Frames;
import org.parl.wire.RemoteMethod;
import org.parl.wire.ValueCodec;

/** A created actor: its data connection, its blocking proxy, and how it ended. */
final class RemoteActorImpl<T> implements RemoteActor<T> {

  /** How long a broken connection waits for the master to say why the job ended. */
  private static final long CAUSE_WAIT_MS = 1_000;
  /** How long a close waits for the worker to confirm that the job's resources are back. */
  private static final long CLOSE_WAIT_MS = 10_000;

  /** A method with the decoder of its answers, both made once. */
  private record MethodInfo(RemoteMethod shape, ActorConnection.Decoder<?> decoder) {}

  private final ParlClientImpl client;
  private final Class<T> api;
  private final String implName;
  private final JsonObject job;
  private final ActorConnection conn;
  private final ValueCodec codec;
  private final Promise<JsonObject> ended = Promise.promise();
  private final Map<Method, MethodInfo> methods = new ConcurrentHashMap<>();
  private final T proxy;
  private volatile Future<Void> closing;

  RemoteActorImpl(ParlClientImpl client, Class<T> api, String implName, JsonObject job, ActorConnection conn, ValueCodec codec) {
    this.client = client;
    this.api = api;
    this.implName = implName;
    this.job = job;
    this.conn = conn;
    this.codec = codec;
    this.proxy = api.cast(Proxy.newProxyInstance(api.getClassLoader(), new Class<?>[] {api}, (p, m, args) -> {
      if (m.getDeclaringClass() == Object.class) {
        return objectMethod(p, m, args);
      }
      if (Context.isOnEventLoopThread()) {
        throw new IllegalStateException("a blocking actor proxy was called on an event loop, which must never block: "
            + "use RemoteActor.call(...) there");
      }
      return invoke(m, args == null ? new Object[0] : args, true).await();
    }));
  }

  void startReader() {
    conn.startReader(jobId(), this::lostBecause);
  }

  @Override
  public <R> Future<R> call(Function<? super T, R> method) {
    CallRecorder.Invocation inv = CallRecorder.record(api, method);
    return invoke(inv.method(), inv.args());
  }

  @Override
  public Future<Void> run(Consumer<? super T> method) {
    CallRecorder.Invocation inv = CallRecorder.record(api, a -> {
      method.accept(a);
      return null;
    });
    return invoke(inv.method(), inv.args());
  }

  <R> Future<R> invoke(Method m, Object[] args) {
    return invoke(m, args, false);
  }

  /** @param blocking the caller waits for the answer (and may read it itself) */
  @SuppressWarnings("unchecked")
  private <R> Future<R> invoke(Method m, Object[] args, boolean blocking) {
    if (closing != null) {
      return Future.failedFuture(closedError());
    }
    MethodInfo info = methods.computeIfAbsent(m, this::methodInfo);
    RemoteMethod shape = info.shape();
    FrameBuffer frame = FrameWriter.buffer(2 + shape.signatureUtf8().length + ValueCodec.sizeHint(args))
        .name(shape.signatureUtf8());
    try {
      codec.writeAll(shape.parameters(), args, frame);
    } catch (IOException | RuntimeException e) {
      return Future.failedFuture(new RemoteSerializationException("the arguments of " + api.getSimpleName() + "."
          + shape.signature() + " cannot be serialised: " + e.getMessage(), e));
    }
    ActorConnection.Decoder<R> decoder = (ActorConnection.Decoder<R>) info.decoder();
    return blocking ? conn.call(Frames.CALL, frame, decoder) : conn.send(Frames.CALL, frame, decoder);
  }

  private MethodInfo methodInfo(Method m) {
    RemoteMethod shape = RemoteMethod.of(m);
    ActorConnection.Decoder<?> decoder = shape.returnsNothing()
        ? (bytes, length) -> null
        : (bytes, length) -> codec.read(shape.result(), bytes, 0, length);
    return new MethodInfo(shape, decoder);
  }

  @Override
  public T proxy() {
    return proxy;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <V> Future<V> get(String field, Class<V> type) {
    if (closing != null) {
      return Future.failedFuture(closedError());
    }
    return conn.send(Frames.GET, FrameBuffer.of(field.getBytes(StandardCharsets.UTF_8)),
        (bytes, length) -> (V) codec.read(type, bytes, 0, length));
  }

  @Override
  public Future<Void> set(String field, Object value) {
    if (closing != null) {
      return Future.failedFuture(closedError());
    }
    byte[] name = field.getBytes(StandardCharsets.UTF_8);
    FrameBuffer frame = FrameWriter.buffer(2 + name.length + ValueCodec.sizeHint(value)).name(name);
    try {
      codec.write(value == null ? Object.class : value.getClass(), value, frame);
    } catch (IOException | RuntimeException e) {
      return Future.failedFuture(new RemoteSerializationException("the value for field '" + field
          + "' cannot be serialised: " + e.getMessage(), e));
    }
    return conn.send(Frames.SET, frame, (bytes, length) -> null);
  }

  @Override
  public List<String> gpus() {
    return job.getJsonArray("gpus").stream().map(String::valueOf).toList();
  }

  @Override
  public String jobId() {
    return job.getString("jobId");
  }

  @Override
  public String workerId() {
    return job.getString("workerId");
  }

  /** The master says this actor's job ended (closed, crashed, killed, or lost with its worker). */
  void ended(JsonObject event) {
    ended.tryComplete(event);
  }

  @Override
  public synchronized Future<Void> closeAsync() {
    if (closing == null) {
      Future<Void> closed = conn.isLost() ? Future.succeededFuture() : closeConnection();
      // with the master gone, nobody will confirm that the job ended
      long confirmMs = client.lostReason().isPresent() ? 0 : CLOSE_WAIT_MS;
      closing = closed
          .compose(v -> confirmMs == 0 ? Future.succeededFuture()
              : ended.future().timeout(confirmMs, TimeUnit.MILLISECONDS).otherwiseEmpty())
          .<Void>mapEmpty()
          .onComplete(ar -> client.forget(this));
    }
    return closing;
  }

  private Future<Void> closeConnection() {
    conn.closing();
    return conn.send(Frames.CLOSE, FrameBuffer.empty(), (bytes, length) -> null)
        .otherwiseEmpty()
        .<Void>mapEmpty()
        .onComplete(ar -> conn.closeSocket());
  }

  @Override
  public void close() {
    closeAsync().await();
  }

  /** Called on the reader thread when the connection breaks unexpectedly: waits briefly for the reason. */
  private ParlException lostBecause(IOException e) {
    String cause;
    try {
      JsonObject event = ended.future().await(CAUSE_WAIT_MS, TimeUnit.MILLISECONDS);
      cause = event.getString("cause", "its job process ended");
    } catch (Exception timeout) {
      cause = client.lostReason().orElse("its job process ended unexpectedly (" + e.getMessage() + ")");
    }
    return new ActorLostException("actor " + implName + " (" + jobId() + " on worker " + workerId() + ") was lost: "
        + cause + ". Create a new actor to go on");
  }

  private InvalidRequestException closedError() {
    return new InvalidRequestException("actor " + implName + " (" + jobId() + ") was closed; create a new one");
  }

  private Object objectMethod(Object p, Method m, Object[] args) {
    return switch (m.getName()) {
      case "equals" -> p == args[0];
      case "hashCode" -> System.identityHashCode(p);
      default -> "RemoteActor[" + implName + " " + jobId() + " on " + workerId() + "]";
    };
  }

  @Override
  public String toString() {
    return "RemoteActor[" + implName + " " + jobId() + " on " + workerId() + "]";
  }
}
