package org.parl.client;

import io.vertx.core.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.cert.Certificate;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import javax.net.ssl.SSLSocket;
import org.parl.net.HostPort;
import org.parl.wire.JsonLines;

/**
 * The gateway connection's transport: lines over TLS 1.3 on a blocking JDK socket
 * ({@link ProofBoundTls}), with a thread that reads lines and hands each to the client's context, and
 * one that writes them, so that the context never blocks on the socket. Netty's TLS handler would do
 * the same on the event loop, but its first handshake in a fresh program costs ~0.2 s more
 * (BENCHMARKS.md, issue 24), and the rest of the client's network (the data path) is blocking
 * sockets already.
 */
final class GatewaySocket {

  /** Bytes read from the socket at a time. */
  private static final int CHUNK = 16 * 1024;
  /** How long a close waits for lines written before it to go out. */
  private static final long LINGER_MS = 2_000;
  private static final int QUEUED_BYTES = 2 * JsonLines.MAX_LINE;

  private final Socket plain;
  private final SSLSocket tls;
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

  private GatewaySocket(Socket plain, SSLSocket tls) {
    this.plain = plain;
    this.tls = tls;
  }

  /**
   * Connects and runs the TLS handshake within {@code timeoutMs}; blocks, so not on an event loop.
   *
   * @throws IOException when nothing answers, or not with TLS 1.3
   */
  static GatewaySocket open(HostPort master, int timeoutMs) throws IOException {
    Socket s = new Socket();
    try {
      s.setTcpNoDelay(true);
      s.connect(new InetSocketAddress(master.host(), master.port()), timeoutMs);
      return new GatewaySocket(s, ProofBoundTls.wrap(s, master.host(), master.port(), timeoutMs));
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  /** The certificate the master presented, which its proof must be bound to. */
  Certificate peerCertificate() throws IOException {
    return ProofBoundTls.peerCertificate(tls);
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
        readLines(tls.getInputStream(), line -> {
          awaitRoom(line.length);
          context.runOnContext(v -> {
            queued.release(line.length);
            onLine.accept(line);
          });
        });
      } catch (IOException | InterruptedException e) {
        // the connection ended: said below, the same way however it ended
      } finally {
        close();
        context.runOnContext(v -> onClosed.run());
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

  /** Reads until the stream ends or a line is too long. */
  private static void readLines(InputStream in, LineHandler onLine) throws IOException, InterruptedException {
    byte[] chunk = new byte[CHUNK];
    byte[] line = new byte[CHUNK];
    int length = 0;
    for (int n; (n = in.read(chunk)) > 0;) {
      int from = 0;
      for (int end = 0; end <= n; end++) {
        if (end < n && chunk[end] != '\n') {
          continue;
        }
        if (length + end - from > JsonLines.MAX_LINE) {
          return; // an attack or a bug: nothing more is read
        }
        if (line.length < length + end - from) {
          line = Arrays.copyOf(line, Math.min(Math.max(length + end - from, line.length * 2), JsonLines.MAX_LINE));
        }
        System.arraycopy(chunk, from, line, length, end - from);
        length += end - from;
        if (end < n) { // a whole line
          if (length > 0) {
            onLine.accept(Arrays.copyOf(line, length));
          }
          length = 0;
        }
        from = end + 1;
      }
    }
  }

  /** Sends one line of encoded JSON (which holds no raw newline); never blocks. */
  void write(byte[] json) {
    try {
      writer.execute(() -> {
        try {
          byte[] line = Arrays.copyOf(json, json.length + 1);
          line[json.length] = '\n';
          OutputStream out = tls.getOutputStream();
          out.write(line);
          out.flush();
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
      plain.close();
    } catch (IOException e) {
      // closed all the same
    }
    closedNow.complete(null);
  }

  /** Takes one whole line. */
  private interface LineHandler {
    void accept(byte[] line) throws IOException, InterruptedException;
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }
}
