package org.parl.limits;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.NetSocket;
import io.vertx.core.streams.ReadStream;
import io.vertx.core.streams.WriteStream;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Backpressure on one outbound stream (docs/contract.md §8): a peer that does not read costs at most a bounded
 * queue. While the stream's write queue is full its input, if any, is paused; when the queue stays
 * full past a grace, or the bytes not yet flushed pass a hard cap, the peer is dropped with one log
 * line, and nothing more is written to it. Used on the stream's own context.
 *
 * <p>Dropping uses Vert.x's public API only ({@link #abort}): its {@code close()} first flushes what
 * is queued, which a peer that does not read never lets happen, so each server that uses this bound
 * also sets an idle timeout (the gateway and the worker's control port on reads, the monitor on
 * reads and writes). On an idle timeout Vert.x closes the channel at once, dropping its queue: a
 * dropped peer costs at most what was queued when it was dropped, for at most that timeout.
 */
public final class WriteBound {

  private static final Logger log = LoggerFactory.getLogger(WriteBound.class);
  /** The stream's write queue size, past which it counts as full. */
  public static final int QUEUE_BYTES = 1 << 20;
  /** How long a queue may stay full before its peer is dropped. */
  public static final long GRACE_MS = 5_000;
  /** Bytes not yet flushed past which the peer is dropped at once. */
  public static final long HARD_CAP = 16L << 20;

  private final Vertx vertx;
  private final WriteStream<Buffer> stream;
  private final ReadStream<?> input;
  private final String peer;
  private final Runnable drop;
  private final long graceMs;
  private final long hardCap;
  private final AtomicLong pending = new AtomicLong();
  private long fullTimer = -1;
  private boolean dropped;

  /**
   * @param input paused while the queue is full, or null
   * @param peer names the peer in the log line
   * @param drop disconnects the peer
   */
  public WriteBound(Vertx vertx, WriteStream<Buffer> stream, ReadStream<?> input, String peer, Runnable drop) {
    this(vertx, stream, input, peer, drop, GRACE_MS, HARD_CAP);
  }

  /** With another grace and hard cap, for tests. */
  public WriteBound(Vertx vertx, WriteStream<Buffer> stream, ReadStream<?> input, String peer, Runnable drop,
      long graceMs, long hardCap) {
    this.vertx = vertx;
    this.stream = stream;
    this.input = input;
    this.peer = peer;
    this.drop = drop;
    this.graceMs = graceMs;
    this.hardCap = hardCap;
    stream.setWriteQueueMaxSize(QUEUE_BYTES);
    stream.drainHandler(v -> drained());
  }

  /** Writes {@code data} unless the peer was dropped; false when it is (or has just been) dropped. */
  public boolean write(Buffer data) {
    if (dropped) {
      return false;
    }
    int size = data.length();
    pending.addAndGet(size);
    stream.write(data).onComplete(ar -> pending.addAndGet(-size));
    if (pending.get() > hardCap) {
      drop(pending.get() + " bytes queued, past the cap of " + hardCap);
      return false;
    }
    if (fullTimer < 0 && stream.writeQueueFull()) {
      if (input != null) {
        input.pause();
      }
      fullTimer = vertx.setTimer(graceMs, t -> {
        fullTimer = -1;
        if (stream.writeQueueFull()) {
          drop("its write queue stayed full for " + graceMs + " ms (" + pending.get() + " bytes queued)");
        }
      });
    }
    return true;
  }

  /**
   * Disconnects a peer that does not read: stops reading from it and closes the connection once
   * what is queued is flushed, or, if it never is, on the server's idle timeout (see above).
   */
  public static void abort(NetSocket socket) {
    socket.pause(); // a paused socket stops reading: its read-idle timeout runs even if the peer goes on sending
    socket.close();
  }

  /** Disconnects an HTTP peer that does not read; as {@link #abort(NetSocket)}, on the server's idle timeout. */
  public static void abort(HttpConnection connection) {
    connection.close();
  }

  /** True once the peer was dropped. */
  public boolean dropped() {
    return dropped;
  }

  /** Bytes written but not yet flushed to the peer. */
  public long pending() {
    return pending.get();
  }

  private void drained() {
    if (fullTimer >= 0) {
      vertx.cancelTimer(fullTimer);
      fullTimer = -1;
    }
    if (input != null && !dropped) {
      input.resume();
    }
  }

  private void drop(String why) {
    if (!dropped) {
      dropped = true;
      if (fullTimer >= 0) {
        vertx.cancelTimer(fullTimer);
        fullTimer = -1;
      }
      if (input != null) {
        input.pause();
      }
      log.warn("disconnected {}: it does not read what is sent to it; {}", peer, why);
      drop.run();
    }
  }
}
