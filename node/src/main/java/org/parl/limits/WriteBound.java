package org.parl.limits;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.core.streams.ReadStream;
import io.vertx.core.streams.WriteStream;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Backpressure on one outbound stream (SPEC §8): a peer that does not read costs at most a bounded
 * queue. While the stream's write queue is full its input, if any, is paused; when the queue stays
 * full past a grace, or the bytes not yet flushed pass a hard cap, the peer is dropped with one log
 * line. Used on the stream's own context.
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
   * Closes a connection at once, dropping what is queued on it: Vert.x's own {@code close()} first
   * flushes the queue, which never happens when the peer does not read.
   *
   * @param connection a {@link io.vertx.core.net.NetSocket} or an {@link io.vertx.core.http.HttpConnection}
   */
  public static void abort(Object connection) {
    if (connection instanceof ConnectionBase c) {
      c.channelHandlerContext().close(); // from below Vert.x's handler, which would queue the close after the writes
    } else if (connection instanceof io.vertx.core.net.NetSocket s) {
      s.close();
    } else if (connection instanceof io.vertx.core.http.HttpConnection h) {
      h.close();
    }
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
      log.warn("disconnected {}: it does not read what is sent to it; {}", peer, why);
      drop.run();
    }
  }
}
