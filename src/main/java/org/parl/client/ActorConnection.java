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
import java.util.function.Function;
import org.parl.ActorLostException;
import org.parl.ParlException;
import org.parl.RemoteSerializationException;
import org.parl.wire.Frames;

/**
 * The data path from a client to one job process: a plain TCP connection on which calls are
 * written by the calling thread and answered in order; a reader thread matches answers to calls
 * by id and completes their futures (on the caller's Vert.x context when it had one). When the
 * connection breaks, every pending and later call fails with {@link ActorLostException}.
 */
final class ActorConnection {

  /** Decodes a RESULT payload. */
  interface Decoder<R> {
    R decode(byte[] payload) throws Exception;
  }

  private record Pending(Promise<Object> promise, Decoder<?> decoder, Context context) {}

  private final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;
  private final AtomicLong ids = new AtomicLong();
  private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
  private volatile ParlException lost;
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

  /** Starts the reader; {@code onBroken} gives the reason a broken connection is reported with. */
  void startReader(String name, Function<IOException, ParlException> onBroken) {
    Thread t = new Thread(() -> readLoop(onBroken), "parl-actor-" + name);
    t.setDaemon(true);
    t.start();
  }

  /** Sends a request; the future completes with the decoded answer. */
  @SuppressWarnings("unchecked")
  <R> Future<R> send(byte type, byte[] payload, Decoder<R> decoder) {
    Context ctx = Context.isOnVertxThread() ? io.vertx.core.Vertx.currentContext() : null;
    Promise<Object> promise = Promise.promise();
    long id = ids.incrementAndGet();
    pending.put(id, new Pending(promise, decoder, ctx));
    ParlException broken = lost;
    if (broken != null) {
      fail(id, broken);
    } else if (Context.isOnEventLoopThread()) {
      // a large write could block: never on an event loop
      writer().execute(() -> write(id, type, payload));
    } else {
      write(id, type, payload);
    }
    return (Future<R>) promise.future();
  }

  private void write(long id, byte type, byte[] payload) {
    try {
      synchronized (out) {
        Frames.write(out, type, id, payload);
      }
    } catch (IOException e) {
      // the reader sees the broken connection and fails everything pending
      closeSocket();
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

  private void readLoop(Function<IOException, ParlException> onBroken) {
    try {
      while (true) {
        Frames.Frame f = Frames.read(in);
        Pending p = pending.remove(f.id());
        if (p == null) {
          continue;
        }
        if (f.type() == Frames.ERROR) {
          complete(p, null, Errors.fromJob(new JsonObject(new String(f.payload(), java.nio.charset.StandardCharsets.UTF_8))));
          continue;
        }
        Object value;
        try {
          value = p.decoder().decode(f.payload());
        } catch (Exception e) {
          complete(p, null, new RemoteSerializationException("the answer cannot be deserialised: " + e.getMessage(), e));
          continue;
        }
        complete(p, value, null);
      }
    } catch (IOException e) {
      lost = closing ? new ActorLostException("this actor was closed") : onBroken.apply(e);
    } catch (RuntimeException e) {
      lost = new ParlException("the connection to the actor failed: " + e, e);
    }
    closeSocket();
    for (Long id : pending.keySet()) {
      fail(id, lost);
    }
    if (offLoopWriter != null) {
      offLoopWriter.shutdown();
    }
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

  void closeSocket() {
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
  }
}
