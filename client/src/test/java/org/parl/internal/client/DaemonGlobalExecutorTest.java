package org.parl.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.concurrent.GlobalEventExecutor;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DaemonGlobalExecutorTest {

  @Test
  void globalExecutorRunsTasksOnDaemonThreads() throws Exception {
    DaemonGlobalExecutor.apply();
    // the executor's thread ends after its quiet period; wait so that the task below starts a new one
    try {
      GlobalEventExecutor.INSTANCE.awaitInactivity(5, TimeUnit.SECONDS);
    } catch (IllegalStateException notStarted) {
      // no thread yet: the task below starts the first
    }
    CompletableFuture<Boolean> daemon = new CompletableFuture<>();
    GlobalEventExecutor.INSTANCE.execute(() -> daemon.complete(Thread.currentThread().isDaemon()));
    assertTrue(daemon.get(5, TimeUnit.SECONDS), "the global executor's thread is a daemon");
    CompletableFuture<Integer> ran = new CompletableFuture<>();
    GlobalEventExecutor.INSTANCE.execute(() -> ran.complete(42));
    assertEquals(42, ran.get(5, TimeUnit.SECONDS), "tasks still run");
  }
}
