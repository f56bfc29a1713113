package org.parl.internal.client;

import io.vertx.core.Context;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.parl.internal.wire.FrameBuffer;
import org.parl.internal.wire.Frames;

/**
 * Writes the request frames of one actor connection. A call is written by the calling thread
 * itself (no thread hop on the way out), except on an event loop, which a large write could block:
 * there it goes to a writer thread made on first need. Frames never interleave.
 */
final class FrameWriter {

  /** Buffers kept for reuse are dropped when larger than this. */
  private static final int KEEP_AT_MOST = 16 << 20;
  /** Per-thread frame buffers: a frame written by its own thread can reuse the same memory. */
  private static final ThreadLocal<FrameBuffer> FRAMES = ThreadLocal.withInitial(() -> new FrameBuffer(4096));

  /** The connection's output: raw during the handshake, then sealed ({@link #sealWith}). Guarded by {@link #lock}. */
  private OutputStream out;
  private final Object lock = new Object();
  private final Runnable onFailed;
  private ExecutorService offLoopWriter;

  /** @param onFailed runs when a write fails: the connection is broken */
  FrameWriter(OutputStream out, Runnable onFailed) {
    this.out = out;
    this.onFailed = onFailed;
  }

  /**
   * A buffer to build a frame in: this thread's own when the frame will be written by this
   * thread (so that large arguments do not allocate a new buffer per call), a fresh one when the
   * write is handed to another thread (on an event loop).
   */
  static FrameBuffer buffer(int sizeHint) {
    if (Context.isOnEventLoopThread()) {
      return new FrameBuffer(sizeHint);
    }
    FrameBuffer b = FRAMES.get();
    b.reset(KEEP_AT_MOST);
    return b;
  }

  /** Writes a request now, or hands it to the writer thread on an event loop. */
  void write(long id, byte type, FrameBuffer payload) {
    if (Context.isOnEventLoopThread()) {
      payload.copyArraysIn(); // written later: what the caller does to its arrays meanwhile must not be sent
      try {
        writer().execute(() -> writeNow(id, type, payload));
      } catch (RejectedExecutionException e) {
        // the connection was lost meanwhile, and this request failed with it
        onFailed.run();
      }
    } else {
      writeNow(id, type, payload);
    }
  }

  /** Writes a set-up frame on this thread; a failure is the caller's to handle. */
  void writeSetUp(long id, byte type, byte[] payload) throws IOException {
    synchronized (lock) {
      Frames.write(out, type, id, payload);
    }
  }

  /** Every frame from now on goes through {@code sealed} (once the handshake has succeeded, before any call). */
  void sealWith(OutputStream sealed) {
    synchronized (lock) {
      out = sealed;
    }
  }

  /** Stops the writer thread, if there is one. */
  synchronized void shutdown() {
    if (offLoopWriter != null) {
      offLoopWriter.shutdown();
    }
  }

  private void writeNow(long id, byte type, FrameBuffer payload) {
    try {
      synchronized (lock) {
        payload.writeFrame(out, type, id, true);
      }
    } catch (IOException e) {
      // whoever reads sees the broken connection and fails everything pending
      onFailed.run();
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
}
