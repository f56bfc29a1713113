package org.parl.internal.client;

import io.vertx.core.Context;
import java.io.IOException;
import java.security.cert.Certificate;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.parl.internal.net.HostPort;
import org.parl.internal.wire.JsonLines;
import org.parl.internal.wire.LineSocket;

/**
 * The gateway connection's transport: lines over TLS 1.3 on a blocking JDK socket
 * ({@link LineSocket}), with a thread that reads lines and hands each to the client's context, and
 * one that writes them, so that the context never blocks on the socket. Netty's TLS handler would do
 * the same on the event loop, but its first handshake in a fresh program is slower, and the rest of
 * the client's network (the data path) is blocking sockets already.
 */
final class GatewaySocket {

  /** How long a close waits for lines written before it to go out. */
  private static final long LINGER_MS = 2_000;
  private static final int QUEUED_BYTES = 2 * JsonLines.MAX_LINE;

  private final LineSocket socket;
  private final AtomicBoolean closed = new AtomicBoolean();
  /** One thread, ended with the connection: lines go out in the order written, the close after them. */
  private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> daemon(r, "parl-gateway-writer"));
  private final CompletableFuture<Void> closedNow = new CompletableFuture<>();
  /**
   * Bytes of lines handed to the context and not yet taken: the reader stops reading at
   * {@link #QUEUED_BYTES}, so that a peer sending faster than the context decodes is held back by TCP
   * instead of filling the client's memory.
   */
  private final Semaphore queued = new Semaphore(QUEUED_BYTES);

  private GatewaySocket(LineSocket socket) {
    this.socket = socket;
  }

  /**
   * Connects and runs the TLS handshake within {@code timeoutMs}; blocks, so not on an event loop.
   *
   * @throws IOException when nothing answers, or not with TLS 1.3
   */
  static GatewaySocket open(HostPort master, int timeoutMs) throws IOException {
    return new GatewaySocket(LineSocket.open(master, timeoutMs, timeoutMs));
  }

  /**
   * {@link #open} on a thread of its own: a program's first connection runs its TLS handshake, the
   * set-up of the JDK's TLS client included, while Vert.x starts.
   */
  static CompletableFuture<GatewaySocket> openAsync(HostPort master, int timeoutMs) {
    CompletableFuture<GatewaySocket> opened = new CompletableFuture<>();
    daemon(() -> {
      try {
        opened.complete(open(master, timeoutMs));
      } catch (IOException | RuntimeException e) {
        opened.completeExceptionally(e);
      }
    }, "parl-gateway-connect").start();
    return opened;
  }

  /** The certificate the master presented, which its proof must be bound to. */
  Certificate peerCertificate() throws IOException {
    return socket.peerCertificate();
  }

  /**
   * Starts reading: each non-empty line goes to {@code onLine} on {@code context} (at most
   * {@link #QUEUED_BYTES} of them waiting there at a time); when the connection ends (closed by
   * either side, broken, or a line longer than {@link JsonLines#MAX_LINE}), {@code onClosed} runs
   * there once, after the last line.
   */
  void start(Context context, Consumer<byte[]> onLine, Runnable onClosed) {
    daemon(() -> {
      try {
        for (byte[] line; (line = socket.readLine()) != null;) {
          if (line.length == 0) {
            continue;
          }
          byte[] taken = line;
          awaitRoom(taken.length);
          context.runOnContext(v -> {
            queued.release(taken.length);
            onLine.accept(taken);
          });
        }
      } catch (IOException | InterruptedException e) {
        // the connection ended: said below, the same way however it ended
      } finally {
        close();
        try {
          context.runOnContext(v -> onClosed.run());
        } catch (RejectedExecutionException closedVertx) {
          // the client closed its Vert.x before this thread saw the end: nobody is left to tell
        }
      }
    }, "parl-gateway-reader").start();
  }

  /** Waits until the lines handed to the context and not yet taken leave room for {@code bytes} more. */
  private void awaitRoom(int bytes) throws InterruptedException, IOException {
    while (!queued.tryAcquire(bytes, 1, TimeUnit.SECONDS)) {
      if (closed.get()) {
        throw new IOException("closed");
      }
    }
  }

  /** Sends one line of encoded JSON (which holds no raw newline); never blocks. */
  void write(byte[] json) {
    try {
      writer.execute(() -> {
        try {
          socket.writeLine(json);
        } catch (IOException e) {
          close(); // the reader then says the connection ended
        }
      });
    } catch (RejectedExecutionException e) {
      // closed: the line is lost with the connection, as the reader says
    }
  }

  /**
   * Closes the connection once the lines written before have gone out, or after {@link #LINGER_MS}
   * when the peer does not read them. Completes when closed.
   */
  CompletableFuture<Void> close() {
    if (closed.compareAndSet(false, true)) {
      writer.execute(this::closeNow);
      writer.shutdown();
      CompletableFuture.delayedExecutor(LINGER_MS, TimeUnit.MILLISECONDS).execute(this::closeNow);
    }
    return closedNow;
  }

  /** Closes the TCP connection without TLS's closing alert, whose JDK implementation may wait on the peer. */
  private void closeNow() {
    try {
      socket.close();
    } catch (IOException e) {
      // closed all the same
    }
    closedNow.complete(null);
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }
}
