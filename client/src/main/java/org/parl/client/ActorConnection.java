package org.parl.client;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.parl.ActorLostException;
import org.parl.ParlException;
import org.parl.RemoteSerializationException;
import org.parl.wire.FrameBuffer;
import org.parl.wire.Frames;

/**
 * The data path from a client to one job process: a plain TCP connection on which calls are
 * written by the calling thread and answered in order. Answers are matched to calls by id and
 * complete their futures (on the caller's Vert.x context when it had one); they are read by a
 * reader thread, or by a blocking caller itself when nobody else is reading. When the connection
 * breaks, every pending and later call fails with {@link ActorLostException}.
 */
final class ActorConnection {

  /** Decodes a RESULT payload. */
  interface Decoder<R> {
    /** Decodes the first {@code length} bytes of {@code payload}, which is reused afterwards. */
    R decode(byte[] payload, int length) throws Exception;
  }

  /** Buffers kept for reuse are dropped when larger than this. */
  private static final int KEEP_AT_MOST = 16 << 20;
  /** Per-thread frame buffers: a frame written by its own thread can reuse the same memory. */
  private static final ThreadLocal<FrameBuffer> FRAMES = ThreadLocal.withInitial(() -> new FrameBuffer(4096));

  private record Pending(Promise<Object> promise, Decoder<?> decoder, Context context) {}

  private final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;
  private final AtomicLong ids = new AtomicLong();
  private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
  /** Answers are read (under {@link #readLock}) into this buffer and decoded before the next read. */
  private byte[] received = new byte[64 * 1024];
  /** Held by whoever reads answers: the reader thread, or a blocking caller reading its own. */
  private final ReentrantLock readLock = new ReentrantLock();
  private volatile ParlException lost;
  private volatile Thread reader;
  private Function<IOException, ParlException> onBroken = e -> new ActorLostException(e.getMessage());
  private volatile boolean closing;
  private ExecutorService offLoopWriter;

  private ActorConnection(Socket socket) throws IOException {
    this.socket = socket;
    this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 64 * 1024));
    this.out = socket.getOutputStream();
  }

  static ActorConnection open(String host, int port, int timeoutMs) throws IOException {
    Socket s = new Socket();
    s.setTcpNoDelay(true);
    s.setKeepAlive(true);
    s.connect(new InetSocketAddress(host, port), timeoutMs);
    return new ActorConnection(s);
  }

  /**
   * Set-up exchange before the reader runs: sends one frame and reads its answer on this thread.
   *
   * @return the RESULT payload
   * @throws ParlException for an ERROR answer
   */
  byte[] exchange(byte type, byte[] payload, int timeoutMs) throws IOException {
    long id = ids.incrementAndGet();
    socket.setSoTimeout(timeoutMs);
    try {
      Frames.write(out, type, id, payload);
      Frames.Frame f = Frames.read(in);
      if (f.id() != id) {
        throw new IOException("answer " + f.id() + " does not match request " + id);
      }
      if (f.type() == Frames.ERROR) {
        throw Errors.fromJob(new JsonObject(new String(f.payload(), java.nio.charset.StandardCharsets.UTF_8)));
      }
      return f.payload();
    } finally {
      socket.setSoTimeout(0);
    }
  }

  /**
   * Starts the reader thread; {@code onBroken} gives the reason a broken connection is reported
   * with (it may wait a moment for the master to say why the job ended).
   */
  void startReader(String name, Function<IOException, ParlException> onBroken) {
    this.onBroken = onBroken;
    reader = new Thread(this::readLoop, "parl-actor-" + name);
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * A buffer to build a frame in: this thread's own when the frame will be written by this
   * thread (so that large arguments do not allocate a new buffer per call), a fresh one when the
   * write is handed to another thread (on an event loop).
   */
  static FrameBuffer frame(int sizeHint) {
    if (Context.isOnEventLoopThread()) {
      return new FrameBuffer(sizeHint);
    }
    FrameBuffer b = FRAMES.get();
    b.reset(KEEP_AT_MOST);
    return b;
  }

  /** Sends a request; the future completes with the decoded answer. */
  <R> Future<R> send(byte type, FrameBuffer payload, Decoder<R> decoder) {
    return send(type, payload, decoder, false);
  }

  /**
   * Sends a request for a caller that will wait for its answer (a blocking proxy call). When no
   * other thread is reading, the caller reads the answer itself: the reply then wakes the thread
   * that waits for it directly, with no hand-over from a reader thread (~10 µs per call here).
   */
  <R> Future<R> call(byte type, FrameBuffer payload, Decoder<R> decoder) {
    Future<R> answer = send(type, payload, decoder, true);
    if (!answer.isComplete() && readLock.tryLock()) {
      try {
        readWhile(() -> !answer.isComplete());
      } finally {
        readLock.unlock();
      }
      if (!pending.isEmpty() || lost != null) {
        LockSupport.unpark(reader);
      }
    }
    return answer;
  }

  @SuppressWarnings("unchecked")
  private <R> Future<R> send(byte type, FrameBuffer payload, Decoder<R> decoder, boolean callerReads) {
    Context ctx = Context.isOnVertxThread() ? io.vertx.core.Vertx.currentContext() : null;
    Promise<Object> promise = Promise.promise();
    long id = ids.incrementAndGet();
    pending.put(id, new Pending(promise, decoder, ctx));
    ParlException broken = lost;
    if (broken != null) {
      fail(id, broken);
      return (Future<R>) promise.future();
    }
    if (Context.isOnEventLoopThread()) {
      // a large write could block: never on an event loop
      writer().execute(() -> write(id, type, payload));
    } else {
      write(id, type, payload);
    }
    if (!callerReads) {
      LockSupport.unpark(reader);
    }
    return (Future<R>) promise.future();
  }

  private void write(long id, byte type, FrameBuffer payload) {
    try {
      synchronized (out) {
        payload.writeFrame(out, type, id, true);
      }
    } catch (IOException e) {
      // whoever reads sees the broken connection and fails everything pending
      closeSocket();
      LockSupport.unpark(reader);
    }
  }

  private synchronized ExecutorService writer() {
    if (offLoopWriter == null) {
      offLoopWriter = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "parl-actor-writer");
        t.setDaemon(true);
        return t;
      });
    }
    return offLoopWriter;
  }

  /**
   * The reader thread reads while requests are pending and nobody else reads; idle, it parks, so
   * that a blocking caller can take the read over. A connection that breaks while idle is noticed
   * at the next request.
   */
  private void readLoop() {
    while (lost == null && !socket.isClosed()) {
      if (pending.isEmpty()) {
        LockSupport.park(this);
        continue;
      }
      readLock.lock();
      try {
        readWhile(() -> !pending.isEmpty());
      } finally {
        readLock.unlock();
      }
    }
    if (offLoopWriter != null) {
      offLoopWriter.shutdown();
    }
  }

  /** Reads answers while {@code more} holds and the connection lives. Called with {@link #readLock} held. */
  private void readWhile(java.util.function.BooleanSupplier more) {
    try {
      while (more.getAsBoolean() && lost == null) {
        readOne();
      }
    } catch (IOException | RuntimeException e) {
      broken(e);
    }
  }

  /** Reads one answer and completes its request. Called with {@link #readLock} held. */
  private void readOne() throws IOException {
    Frames.Frame f = Frames.read(in, received);
    if (f.payload() != received && f.payload().length <= KEEP_AT_MOST) {
      received = f.payload();
    }
    Pending p = pending.remove(f.id());
    if (p == null) {
      return;
    }
    if (f.type() == Frames.ERROR) {
      complete(p, null, Errors.fromJob(new JsonObject(new String(f.payload(), 0, f.length(), java.nio.charset.StandardCharsets.UTF_8))));
      return;
    }
    Object value;
    try {
      value = p.decoder().decode(f.payload(), f.length());
    } catch (Exception e) {
      complete(p, null, new RemoteSerializationException("the answer cannot be deserialised: " + e.getMessage(), e));
      return;
    }
    complete(p, value, null);
  }

  /** The connection broke: every pending and later request fails with the reason. */
  private void broken(Exception e) {
    if (lost == null) {
      if (e instanceof IOException io) {
        lost = closing ? new ActorLostException("this actor was closed") : onBroken.apply(io);
      } else {
        lost = new ParlException("the connection to the actor failed: " + e, e);
      }
    }
    closeSocket();
    for (Long id : pending.keySet()) {
      fail(id, lost);
    }
    LockSupport.unpark(reader);
  }

  private void fail(long id, ParlException e) {
    Pending p = pending.remove(id);
    if (p != null) {
      complete(p, null, e);
    }
  }

  private static void complete(Pending p, Object value, Throwable failure) {
    if (p.context() != null) {
      p.context().runOnContext(v -> finish(p.promise(), value, failure));
    } else {
      finish(p.promise(), value, failure);
    }
  }

  private static void finish(Promise<Object> promise, Object value, Throwable failure) {
    if (failure == null) {
      promise.tryComplete(value);
    } else {
      promise.tryFail(failure);
    }
  }

  boolean isLost() {
    return lost != null;
  }

  /** Marks the end as expected (the actor is being closed), so it is not reported as a loss. */
  void closing() {
    closing = true;
  }

  /** Closes the connection; the reader thread ends. */
  void closeSocket() {
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
    LockSupport.unpark(reader);
  }
}
