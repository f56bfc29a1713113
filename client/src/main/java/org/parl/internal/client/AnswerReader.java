package org.parl.internal.client;

import io.vertx.core.Future;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.parl.internal.wire.Frames;

/**
 * Reads the answers of one actor connection. Exactly one thread reads at a time, the holder of the
 * read role: a blocking caller takes it when nobody else reads and reads until its own answer has
 * come (completing the answers of others on the way), so that its reply wakes the thread that
 * waits for it directly, with no hand-over between threads; otherwise the reader thread
 * reads while requests are pending, and parks when none are.
 *
 * <p>Whoever gives the role up while requests are still pending wakes the reader thread, so every
 * answer is read by someone; when the reader thread ends (the socket closed), the connection is lost.
 */
final class AnswerReader {

  /** Answers are read into one buffer, reused while it is not larger than this. */
  private static final int KEEP_AT_MOST = 16 << 20;

  /** The connection's input: raw during the handshake, then sealed ({@link #readFrom}). */
  private volatile DataInputStream in;
  private final PendingCalls pending;
  private final BooleanSupplier closed;
  private final Consumer<Exception> onBroken;
  private final LongConsumer onAnswered;
  /** Held by whoever reads answers: the reader thread, or a blocking caller reading its own. */
  private final ReentrantLock readRole = new ReentrantLock();
  /** Answers are read (holding {@link #readRole}) into this buffer and decoded before the next read. */
  private byte[] received = new byte[64 * 1024];
  private volatile Thread reader;
  private volatile String name;
  private Runnable onEnd;
  /** Set when the connection closed before the reader thread was needed: it never starts. */
  private boolean ended;

  /**
   * @param closed whether the socket was closed
   * @param onBroken runs, on the thread that read, when reading failed: the connection is lost
   * @param onAnswered runs with the id of every answer read, once it has been handled
   */
  AnswerReader(DataInputStream in, PendingCalls pending, BooleanSupplier closed, Consumer<Exception> onBroken,
      LongConsumer onAnswered) {
    this.in = in;
    this.pending = pending;
    this.closed = closed;
    this.onBroken = onBroken;
    this.onAnswered = onAnswered;
  }

  /**
   * Arms the reader thread, which starts at the first {@link #wake()}: a program that only makes
   * blocking calls reads its own answers and never needs it, and an asynchronous call starts it
   * after its request has left, while the job works. {@code onEnd} runs on it when it ends.
   */
  void arm(String name, Runnable onEnd) {
    this.name = name;
    this.onEnd = onEnd;
  }

  /** Wakes the reader thread (starting it if armed): there is something to read, or the connection ended. */
  void wake() {
    Thread t = reader;
    if (t != null) {
      LockSupport.unpark(t);
    } else if (name != null) {
      startOrEnd();
    }
  }

  /**
   * Starts the armed reader thread once; on a connection closed before it was needed, does what
   * its end would do here instead, without starting a thread just to end it.
   */
  private void startOrEnd() {
    boolean endHere;
    synchronized (this) {
      if (reader != null || ended) {
        return;
      }
      endHere = closed.getAsBoolean();
      if (endHere) {
        ended = true;
      } else {
        Thread t = new Thread(() -> {
          readLoop();
          onEnd.run();
        }, "parl-actor-" + name);
        t.setDaemon(true);
        reader = t;
        t.start();
      }
    }
    if (endHere) {
      closedWhileIdle();
      onEnd.run();
    }
  }

  /**
   * Reads until {@code answer} is complete if nobody else is reading; returns at once otherwise
   * (the reader thread then reads it). Called by a caller that waits for {@code answer}.
   */
  void readOwn(Future<?> answer) {
    if (answer.isComplete() || !readRole.tryLock()) {
      return;
    }
    try {
      readWhile(() -> !answer.isComplete());
    } finally {
      readRole.unlock();
    }
    if (!pending.isEmpty() || pending.lost() != null) {
      wake();
    }
  }

  /** Reads every frame from now on from {@code sealed} (once the handshake has succeeded, before anything else is read). */
  void readFrom(DataInputStream sealed) {
    in = sealed;
  }

  /** Reads one frame of at most {@code maxPayload} bytes on this thread, for the set-up before the reader thread starts. */
  Frames.Frame readSetUp(int maxPayload) throws IOException {
    return Frames.read(in, null, maxPayload);
  }

  /** Reads while requests are pending and nobody else reads; parks while none are. */
  private void readLoop() {
    while (pending.lost() == null && !closed.getAsBoolean()) {
      if (pending.isEmpty()) {
        LockSupport.park(this);
        continue;
      }
      readRole.lock();
      try {
        readWhile(() -> !pending.isEmpty());
      } finally {
        readRole.unlock();
      }
    }
    closedWhileIdle();
  }

  private void closedWhileIdle() {
    if (pending.lost() == null) {
      // whatever is sent now must fail, not wait for a reader that is gone
      onBroken.accept(new IOException("the connection was closed"));
    }
  }

  /** Reads answers while {@code more} holds and the connection lives. Called holding {@link #readRole}. */
  private void readWhile(BooleanSupplier more) {
    try {
      while (more.getAsBoolean() && pending.lost() == null) {
        Frames.Frame f = Frames.read(in, received);
        if (f.payload() != received && f.payload().length <= KEEP_AT_MOST) {
          received = f.payload();
        }
        pending.answer(f);
        onAnswered.accept(f.id());
      }
    } catch (IOException | RuntimeException e) {
      onBroken.accept(e);
    }
  }
}
