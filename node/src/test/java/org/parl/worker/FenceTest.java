package org.parl.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.parl.internal.net.HostPort;

/**
 * A worker's reaction to losing its master: at once when the master's gateway refuses connections
 * (the master is gone), after the limit when it still accepts them (a frozen master) or cannot be
 * reached; its jobs are stopped first in both cases, and a second loss changes nothing.
 */
class FenceTest {

  private Vertx vertx;
  private final AtomicInteger stops = new AtomicInteger();
  private final CompletableFuture<String> stopped = new CompletableFuture<>();

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  private Fence fence(Duration limit) {
    Fencing fencing = new Fencing(limit, stopped::complete);
    return new Fence(vertx, fencing, "w-test", cause -> {
      stops.incrementAndGet();
      return Future.succeededFuture(2);
    });
  }

  /** Runs {@code fence.masterLost(...)} on a Vert.x context, as the worker verticle does. */
  private void lose(Fence fence, HostPort master) {
    vertx.runOnContext(v -> fence.masterLost(master, "m-test"));
  }

  @Test
  void aMasterWhoseGatewayRefusesConnectionsIsGoneAndTheWorkerStopsAtOnce() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort(); // closed again: nothing listens there any more
    }
    Fence fence = fence(Duration.ofSeconds(60));
    long t0 = System.nanoTime();
    lose(fence, new HostPort("127.0.0.1", port));
    String why = stopped.get(10, TimeUnit.SECONDS);
    assertEquals("the master at 127.0.0.1:" + port + " (member m-test) left the cluster; worker w-test stops", why);
    assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0) < 10, "at once, not after the limit");
    assertEquals(1, stops.get(), "its jobs were stopped first");
  }

  @Test
  void aMasterThatStillAcceptsConnectionsIsFencedAfterTheLimit() throws Exception {
    try (ServerSocket frozen = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      HostPort master = new HostPort("127.0.0.1", frozen.getLocalPort());
      Fence fence = fence(Duration.ofMillis(700));
      long t0 = System.nanoTime();
      lose(fence, master);
      lose(fence, master);
      String why = stopped.get(10, TimeUnit.SECONDS);
      long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      assertTrue(tookMs >= 690, "fenced after " + tookMs + " ms, before the limit");
      assertTrue(why.startsWith("lost the master at 127.0.0.1:" + frozen.getLocalPort())
          && why.contains("worker w-test stopped its 2 job(s)") && why.contains("rejoin with a clean slate"), why);
      assertEquals(1, stops.get(), "its jobs were stopped once");
      assertTrue(fence.masterGone());
    }
  }

  @Test
  void aLiveMastersAnswerCancelsAPendingFence() throws Exception {
    try (ServerSocket frozen = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Fence fence = fence(Duration.ofMillis(1_500));
      lose(fence, new HostPort("127.0.0.1", frozen.getLocalPort()));
      CompletableFuture<Boolean> cancelled = new CompletableFuture<>();
      vertx.setTimer(300, t -> cancelled.complete(fence.cancel("m-live")));
      assertTrue(cancelled.get(10, TimeUnit.SECONDS), "the pending fence was cancelled");
      assertThrows(java.util.concurrent.TimeoutException.class, () -> stopped.get(3, TimeUnit.SECONDS),
          "no fence after the limit");
      assertEquals(0, stops.get(), "no job was stopped");
      CompletableFuture<Boolean> gone = new CompletableFuture<>();
      vertx.runOnContext(v -> gone.complete(fence.masterGone()));
      assertFalse(gone.get(10, TimeUnit.SECONDS), "the worker takes jobs again");
    }
  }

  @Test
  void noMasterInSightStopsTheJobsAtOnceWhateverTheLimit() throws Exception {
    try (ServerSocket frozen = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Fence fence = fence(Duration.ofSeconds(60));
      long t0 = System.nanoTime();
      vertx.runOnContext(v -> fence.mastersOutOfSight(new HostPort("127.0.0.1", frozen.getLocalPort()), "m-test"));
      String why = stopped.get(10, TimeUnit.SECONDS);
      assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0) < 10, "at once, not after the limit");
      assertTrue(why.startsWith("lost sight of every master (last active: 127.0.0.1:" + frozen.getLocalPort() + ")")
          && why.contains("stopped its 2 job(s)"), why);
      assertEquals(1, stops.get());
      CompletableFuture<Boolean> cancelled = new CompletableFuture<>();
      vertx.runOnContext(v -> cancelled.complete(fence.cancel("m-late")));
      assertFalse(cancelled.get(10, TimeUnit.SECONDS), "a fence under way is not cancelled");
    }
  }
}
