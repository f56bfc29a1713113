package org.parl.internal.client;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Bounds a data connection's set-up (connect, TLS handshake, hello, shipping code, create) by closing
 * its socket when the time is up, instead of timed socket operations: the JDK's socket turns
 * non-blocking for good at its first timed operation, and every read after it then costs a read that
 * finds nothing, a poll and a second read, on every call of the actor's life.
 */
final class SetUpDeadline {

  /** One blocking step of the set-up. */
  interface Step<T> {
    T run() throws IOException;
  }

  private static final ScheduledThreadPoolExecutor CLOSER = closer();

  private SetUpDeadline() {}

  private static ScheduledThreadPoolExecutor closer() {
    ScheduledThreadPoolExecutor e = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "parl-set-up-deadline");
      t.setDaemon(true);
      return t;
    });
    e.setRemoveOnCancelPolicy(true);
    return e;
  }

  /**
   * Runs {@code step}, closing {@code socket} if it takes longer than {@code timeoutMs}.
   *
   * @throws SocketTimeoutException naming {@code what} when the time ran out
   */
  static <T> T within(Socket socket, int timeoutMs, String what, Step<T> step) throws IOException {
    AtomicBoolean expired = new AtomicBoolean();
    ScheduledFuture<?> deadline = CLOSER.schedule(() -> {
      expired.set(true);
      try {
        socket.close();
      } catch (IOException e) {
        // closed all the same
      }
    }, timeoutMs, TimeUnit.MILLISECONDS);
    try {
      return step.run();
    } catch (IOException e) {
      if (expired.get()) {
        throw new SocketTimeoutException(what + " took longer than " + timeoutMs + " ms");
      }
      throw e;
    } finally {
      deadline.cancel(false);
    }
  }
}
