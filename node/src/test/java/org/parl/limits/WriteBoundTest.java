package org.parl.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A peer that does not read is dropped; one that reads is not, however much it is sent. */
class WriteBoundTest {

  private static final int IDLE_S = 2;
  private Vertx vertx;
  private final CompletableFuture<NetSocket> accepted = new CompletableFuture<>();
  private volatile Context socketContext;
  private int port;

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    // as the servers that use WriteBound, an idle timeout: how a dropped peer that never reads goes
    port = vertx.createNetServer(new NetServerOptions().setHost("127.0.0.1").setPort(0).setIdleTimeout(IDLE_S))
        .connectHandler(s -> {
          socketContext = vertx.getOrCreateContext();
          accepted.complete(s);
        }).listen()
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /** Writes {@code chunks} chunks of 64 KiB on the socket's own context, as servers do; completes with the bound. */
  private CompletableFuture<WriteBound> flood(NetSocket socket, CompletableFuture<Void> closed, long graceMs,
      long hardCap, int chunks) {
    CompletableFuture<WriteBound> result = new CompletableFuture<>();
    socketContext.runOnContext(v -> {
      socket.closeHandler(c -> closed.complete(null));
      WriteBound bound = new WriteBound(vertx, socket, socket, "test peer", () -> WriteBound.abort(socket), graceMs, hardCap);
      Buffer chunk = Buffer.buffer(new byte[64 << 10]);
      for (int i = 0; i < chunks && bound.write(chunk.copy()); i++) {
        // until dropped
      }
      result.complete(bound);
    });
    return result;
  }

  @Test
  void aPeerThatDoesNotReadIsDroppedAtTheHardCap() throws Exception {
    try (Socket peer = new Socket(InetAddress.getLoopbackAddress(), port)) {
      NetSocket socket = accepted.get(10, TimeUnit.SECONDS);
      CompletableFuture<Void> closed = new CompletableFuture<>();
      WriteBound bound = flood(socket, closed, 60_000, 4L << 20, 1000).get(10, TimeUnit.SECONDS);
      assertTrue(bound.dropped());
      closed.get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aPeerWhoseQueueStaysFullIsDroppedAfterTheGrace() throws Exception {
    try (Socket peer = new Socket(InetAddress.getLoopbackAddress(), port)) {
      NetSocket socket = accepted.get(10, TimeUnit.SECONDS);
      CompletableFuture<Void> closed = new CompletableFuture<>();
      WriteBound bound = flood(socket, closed, 200, 1L << 30, 400).get(10, TimeUnit.SECONDS);
      assertFalse(bound.dropped(), "25 MiB are under the hard cap");
      closed.get(10, TimeUnit.SECONDS);
      assertTrue(bound.dropped());
    }
  }

  @Test
  void aPeerThatReadsIsServed() throws Exception {
    try (Socket peer = new Socket(InetAddress.getLoopbackAddress(), port)) {
      NetSocket socket = accepted.get(10, TimeUnit.SECONDS);
      CompletableFuture<Void> closed = new CompletableFuture<>();
      CompletableFuture<Long> read = CompletableFuture.supplyAsync(() -> {
        long n = 0;
        try {
          InputStream in = peer.getInputStream(); // closing it would close the socket
          byte[] b = new byte[1 << 16];
          while (n < 3L << 20) {
            int r = in.read(b);
            if (r < 0) {
              break;
            }
            n += r;
          }
        } catch (java.io.IOException e) {
          return -1L;
        }
        return n;
      });
      WriteBound bound = flood(socket, closed, 5_000, 4L << 20, 48).get(10, TimeUnit.SECONDS);
      assertEquals(48L << 16, read.get(20, TimeUnit.SECONDS));
      assertFalse(bound.dropped());
      assertFalse(closed.isDone());
    }
  }
}
