package org.parl.worker;

import io.vertx.core.Vertx;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import org.parl.job.tree.JobTree;

/**
 * Kills a job whose processes' resident memory, added up over its whole tree (the JVM and every
 * process it started, {@link JobTree}), goes over its actor's {@code maxMemoryMb} (the heap limit
 * alone does not bound native memory, thread stacks, metaspace or child processes). Reads {@code /proc} off
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
    Map<JobProcess, JobTree> limited = new HashMap<>();
    table.live().forEach(p -> {
      if (p.memoryLimitMb() > 0 && p.tree() != null && p.state() != JobProcess.State.ENDED) {
        limited.put(p, p.tree());
      }
    });
    if (limited.isEmpty()) {
      return;
    }
    vertx.executeBlocking(() -> {
      Map<JobProcess, Long> rss = new HashMap<>();
      limited.forEach((p, tree) -> rss.put(p, tree.pids().stream().mapToLong(pid -> ProcMemory.residentKb(pid).orElse(0L)).sum()));
      return rss;
    }).onSuccess(rss -> rss.forEach((p, kb) -> {
      if (kb / 1024 > p.memoryLimitMb()) {
        kill.accept(p, "memory limit: its processes' resident memory reached " + kb / 1024 + " MiB, over maxMemoryMb=" + p.memoryLimitMb());
      }
    }));
  }
}
