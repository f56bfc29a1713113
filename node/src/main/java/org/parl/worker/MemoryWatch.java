package org.parl.worker;

import io.vertx.core.Vertx;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Kills a job process whose resident memory goes over its actor's {@code maxMemoryMb} (the heap
 * limit alone does not bound native memory, thread stacks or metaspace). Reads {@code /proc} off
 * the event loop every {@link #CHECK_MS}; acts on the worker verticle's context.
 */
final class MemoryWatch {

  private static final long CHECK_MS = 250;

  private final Vertx vertx;
  private final JobTable table;
  private final BiConsumer<JobProcess, String> kill;

  /** @param kill kills a process, with the cause its job ends with */
  MemoryWatch(Vertx vertx, JobTable table, BiConsumer<JobProcess, String> kill) {
    this.vertx = vertx;
    this.table = table;
    this.kill = kill;
  }

  void start() {
    vertx.setPeriodic(CHECK_MS, t -> check());
  }

  private void check() {
    Map<JobProcess, Long> limited = new HashMap<>();
    table.live().forEach(p -> {
      if (p.memoryLimitMb > 0 && p.process != null && p.state != JobProcess.State.ENDED) {
        limited.put(p, p.pid());
      }
    });
    if (limited.isEmpty()) {
      return;
    }
    vertx.executeBlocking(() -> {
      Map<JobProcess, Long> rss = new HashMap<>();
      limited.forEach((p, pid) -> ProcMemory.residentKb(pid).ifPresent(kb -> rss.put(p, kb)));
      return rss;
    }).onSuccess(rss -> rss.forEach((p, kb) -> {
      if (kb / 1024 > p.memoryLimitMb) {
        kill.accept(p, "memory limit: its resident memory reached " + kb / 1024 + " MiB, over maxMemoryMb=" + p.memoryLimitMb);
      }
    }));
  }
}
