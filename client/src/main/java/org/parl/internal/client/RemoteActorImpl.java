package org.parl.internal.client;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.parl.ActorLostException;
import org.parl.ActorPreemptedException;
import org.parl.CallTimeoutException;
import org.parl.GpuFaultException;
import org.parl.InvalidRequestException;
import org.parl.ParlException;
import org.parl.RemoteActor;
import org.parl.RemoteSerializationException;
import org.parl.internal.wire.FrameBuffer;
import org.parl.internal.wire.Frames;
import org.parl.internal.wire.RemoteMethod;
import org.parl.internal.wire.SharedLink;
import org.parl.internal.wire.ValueCodec;
import org.parl.internal.wire.gateway.GatewayReply;
import org.parl.internal.wire.gateway.GpuFault;
import org.parl.internal.wire.gateway.JobPlacement;

/**
 * A created actor: its data connection, its blocking proxy, and how it ended. Once its job is known
 * to be gone ({@link #ended}, {@link #lose}), every pending and later call fails with
 * {@link ActorLostException} at once, even while its socket stays half-open; a call with a timeout
 * fails with {@link CallTimeoutException} when its answer is late, and the late answer is dropped.
 */
final class RemoteActorImpl<T> implements RemoteActor<T> {

  /** What an actor needs from the client that created it. */
  interface Owner {
    Vertx vertx();

    /** Why the connection to the master was lost, if it was. */
    Optional<String> lostReason();

    /** The default call timeout in milliseconds, 0 for none. */
    long callTimeoutMs();

    /** The actor was closed: the client forgets it. */
    void forget(RemoteActorImpl<?> actor);
  }

  /** How long a broken connection waits for the master to say why the job ended. */
  private static final long CAUSE_WAIT_MS = 1_000;
  /** How long a close waits for the worker to confirm that the job's resources are back. */
  private static final long CLOSE_WAIT_MS = 10_000;

  /** A method with the decoder of its answers, both made once. */
  private record MethodInfo(RemoteMethod shape, ActorConnection.Decoder<?> decoder) {}

  private final Owner client;
  private final Class<T> api;
  private final String implName;
  private final JobPlacement placement;
  private final ActorConnection conn;
  private final ValueCodec codec;
  private final Promise<GatewayReply.JobEnded> ended = Promise.promise();
  private final Map<Method, MethodInfo> methods = new ConcurrentHashMap<>();
  private final T proxy;
  private volatile Future<Void> closing;
  /** Set once the actor is known to be gone: every later call fails with it at once. */
  private volatile ActorLostException lost;

  RemoteActorImpl(Owner client, Class<T> api, String implName, JobPlacement placement, ActorConnection conn, ValueCodec codec) {
    this.client = client;
    this.api = api;
    this.implName = implName;
    this.placement = placement;
    this.conn = conn;
    this.codec = codec;
    this.proxy = newProxy(-1);
  }

  /** @param timeoutMs the calls' timeout, 0 for none, -1 for the client's default */
  T newProxy(long timeoutMs) {
    return ActorProxy.create(this, api, timeoutMs);
  }

  /** The actor behind a blocking proxy of any of its handles, if {@code proxy} is one. */
  static Optional<RemoteActorImpl<?>> behind(Object proxy) {
    return ActorProxy.actorOf(proxy);
  }

  /** A blocking call through a proxy: waits for the answer, or for {@code timeoutMs}. */
  Object invokeBlocking(Method m, Object[] args, long timeoutMs) {
    return invoke(m, args, true, timeoutMs).await();
  }

  /** The client this actor belongs to. */
  Owner owner() {
    return client;
  }

  void armReader() {
    conn.armReader(jobId(), this::lostBecause);
  }

  @Override
  public <R> Future<R> call(Function<? super T, R> method) {
    return call(method, -1);
  }

  /** @param timeoutMs as for {@link #newProxy} */
  <R> Future<R> call(Function<? super T, R> method, long timeoutMs) {
    CallRecorder.Invocation inv = CallRecorder.record(api, method);
    return invoke(inv.method(), inv.args(), false, timeoutMs);
  }

  @Override
  public Future<Void> run(Consumer<? super T> method) {
    return run(method, -1);
  }

  /** @param timeoutMs as for {@link #newProxy} */
  Future<Void> run(Consumer<? super T> method, long timeoutMs) {
    CallRecorder.Invocation inv = CallRecorder.record(api, a -> {
      method.accept(a);
      return null;
    });
    return invoke(inv.method(), inv.args(), false, timeoutMs);
  }

  @Override
  public RemoteActor<T> withTimeout(Duration timeout) {
    return new TimedActor<>(this, TimedActor.millis(timeout));
  }

  /**
   * @param blocking the caller waits for the answer (and, without a timeout, may read it itself)
   * @param timeoutMs as for {@link #newProxy}
   */
  @SuppressWarnings("unchecked")
  private <R> Future<R> invoke(Method m, Object[] args, boolean blocking, long timeoutMs) {
    Future<R> refused = refused();
    if (refused != null) {
      return refused;
    }
    MethodInfo info = methods.computeIfAbsent(m, this::methodInfo);
    RemoteMethod shape = info.shape();
    FrameBuffer frame = FrameWriter.buffer(2 + shape.signatureUtf8().length + ValueCodec.sizeHint(args))
        .name(shape.signatureUtf8());
    SharedLink.Lease lease = conn.lease();
    try {
      codec.writeAll(shape.parameters(), args, frame, lease);
    } catch (IOException | RuntimeException e) {
      lease.abandon();
      return Future.failedFuture(new RemoteSerializationException("the arguments of " + api.getSimpleName() + "."
          + shape.signature() + " cannot be serialised: " + e.getMessage(), e));
    }
    ActorConnection.Decoder<R> decoder = (ActorConnection.Decoder<R>) info.decoder();
    long limit = timeout(timeoutMs);
    if (limit > 0) {
      // the caller must not read its own answer: a read cannot be given up when the time is over
      return CallTimer.within(client.vertx(), conn.send(Frames.CALL, frame, decoder, lease), limit,
          () -> timeoutError(api.getSimpleName() + "." + shape.signature(), limit));
    }
    return blocking ? conn.call(Frames.CALL, frame, decoder, lease) : conn.send(Frames.CALL, frame, decoder, lease);
  }

  private long timeout(long timeoutMs) {
    return timeoutMs >= 0 ? timeoutMs : client.callTimeoutMs();
  }

  /** A failed future when no request can be sent (the actor is closed or lost); null when one can. */
  private <R> Future<R> refused() {
    ActorLostException gone = lost;
    if (gone != null) {
      return Future.failedFuture(gone);
    }
    return closing != null ? Future.failedFuture(closedError()) : null;
  }

  private MethodInfo methodInfo(Method m) {
    RemoteMethod shape = RemoteMethod.of(m);
    ActorConnection.Decoder<?> decoder = shape.returnsNothing()
        ? (bytes, length) -> null
        : (bytes, length) -> codec.read(shape.result(), bytes, 0, length, conn.shared());
    return new MethodInfo(shape, decoder);
  }

  @Override
  public T proxy() {
    return proxy;
  }

  @Override
  public <V> Future<V> get(String field, Class<V> type) {
    return get(field, type, -1);
  }

  /** @param timeoutMs as for {@link #newProxy} */
  @SuppressWarnings("unchecked")
  <V> Future<V> get(String field, Class<V> type, long timeoutMs) {
    Future<V> refused = refused();
    if (refused != null) {
      return refused;
    }
    Future<V> answer = conn.send(Frames.GET, FrameBuffer.of(field.getBytes(StandardCharsets.UTF_8)),
        (bytes, length) -> (V) codec.read(type, bytes, 0, length, conn.shared()));
    long limit = timeout(timeoutMs);
    return CallTimer.within(client.vertx(), answer, limit, () -> timeoutError("reading field '" + field + "'", limit));
  }

  @Override
  public Future<Void> set(String field, Object value) {
    return set(field, value, -1);
  }

  /** @param timeoutMs as for {@link #newProxy} */
  Future<Void> set(String field, Object value, long timeoutMs) {
    Future<Void> refused = refused();
    if (refused != null) {
      return refused;
    }
    byte[] name = field.getBytes(StandardCharsets.UTF_8);
    FrameBuffer frame = FrameWriter.buffer(2 + name.length + ValueCodec.sizeHint(value)).name(name);
    SharedLink.Lease lease = conn.lease();
    try {
      codec.write(value == null ? Object.class : value.getClass(), value, frame, lease);
    } catch (IOException | RuntimeException e) {
      lease.abandon();
      return Future.failedFuture(new RemoteSerializationException("the value for field '" + field
          + "' cannot be serialised: " + e.getMessage(), e));
    }
    long limit = timeout(timeoutMs);
    return CallTimer.within(client.vertx(), conn.send(Frames.SET, frame, (bytes, length) -> null, lease), limit,
        () -> timeoutError("writing field '" + field + "'", limit));
  }

  @Override
  public List<String> gpus() {
    return placement.job().gpus().stream().map(String::valueOf).toList();
  }

  @Override
  public String jobId() {
    return placement.job().jobId();
  }

  @Override
  public String workerId() {
    return placement.job().workerId();
  }

  /**
   * The master says this actor's job ended (closed, crashed, killed, or lost with its worker): unless
   * this client is closing it, the actor is lost.
   */
  void ended(GatewayReply.JobEnded event) {
    ended.tryComplete(event);
    if (closing == null) {
      lose(lostError(event));
    }
  }

  /**
   * The actor is gone: its pending and later calls fail at once with an {@link ActorLostException}
   * naming {@code cause}, whether or not its socket has closed (a frozen or cut-off host's stays
   * half-open). Safe to call from any thread, more than once (the first cause is kept).
   */
  void lose(String cause) {
    lose(lostError(cause));
  }

  private void lose(ActorLostException why) {
    synchronized (this) {
      if (lost == null) {
        lost = why;
      }
    }
    conn.closeSocket(); // the reader then fails what is pending with the same exception
  }

  @Override
  public synchronized Future<Void> closeAsync() {
    if (closing == null) {
      Future<Void> closed = conn.isLost() || lost != null ? Future.succeededFuture() : closeConnection();
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
    if (lost != null) {
      return lost;
    }
    try {
      return lostError(ended.future().await(CAUSE_WAIT_MS, TimeUnit.MILLISECONDS));
    } catch (Exception timeout) {
      return lostError(client.lostReason().orElse("its job process ended unexpectedly (" + e.getMessage() + ")"));
    }
  }

  /**
   * The exception of a job-ended event: a {@link GpuFaultException} when the JobCenter stopped the job
   * for a faulty GPU (the event's {@code gpuFault}), else an {@link ActorLostException} with its cause.
   */
  private ActorLostException lostError(GatewayReply.JobEnded event) {
    GpuFault fault = event.gpuFault();
    if (event.preempted()) {
      return new ActorPreemptedException("actor " + implName + " (" + jobId() + " on worker " + workerId() + ") was "
          + event.cause() + ". Create a new actor to go on, at a higher priority to keep it");
    }
    if (fault == null) {
      return lostError(event.cause());
    }
    return new GpuFaultException("actor " + implName + " (" + jobId() + " on worker " + workerId() + ") was stopped: "
        + fault.describe() + ", so it was quarantined. Create a new actor to go on: it is placed on a healthy GPU",
        fault.workerId(), fault.index(), fault.uuid(), fault.fault());
  }

  private ActorLostException lostError(String cause) {
    return new ActorLostException("actor " + implName + " (" + jobId() + " on worker " + workerId() + ") was lost: "
        + cause + ". Create a new actor to go on");
  }

  private CallTimeoutException timeoutError(String what, long timeoutMs) {
    return new CallTimeoutException(what + " on actor " + implName + " (" + jobId() + " on worker " + workerId()
        + ") got no answer within " + timeoutMs / 1000.0 + " s. The actor stays usable: the call may still run (later "
        + "calls run after it) and its late answer is dropped; give it more time with withTimeout(...) or "
        + "ConnectOptions.setCallTimeout(...)");
  }

  private InvalidRequestException closedError() {
    return new InvalidRequestException("actor " + implName + " (" + jobId() + ") was closed; create a new one");
  }

  @Override
  public String toString() {
    return "RemoteActor[" + implName + " " + jobId() + " on " + workerId() + "]";
  }
}
