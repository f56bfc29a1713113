package org.parl.worker;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import org.parl.job.PartFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the unfinished transfers ({@link PartFiles}) that killed job processes left in the
 * host's shipped-code cache: once when the worker starts, then every {@link #PERIOD_MS}, those
 * older than {@link #MAX_AGE_MS} (a blob is written from memory in well under a second). The
 * work runs off the event loop; what it removed is logged in one line.
 */
final class CodeCacheSweep {

  private static final Logger log = LoggerFactory.getLogger(CodeCacheSweep.class);
  static final long MAX_AGE_MS = 10 * 60_000L;
  static final long PERIOD_MS = 5 * 60_000L;

  private final Path dir;

  CodeCacheSweep(Path dir) {
    this.dir = dir;
  }

  /** Sweeps now and every {@link #PERIOD_MS}; the first sweep's count of removed files. */
  Future<Integer> start(Vertx vertx) {
    vertx.setPeriodic(PERIOD_MS, t -> sweep(vertx));
    return sweep(vertx);
  }

  private Future<Integer> sweep(Vertx vertx) {
    return vertx.executeBlocking(() -> PartFiles.sweep(dir, System.currentTimeMillis(), MAX_AGE_MS), false)
        .onSuccess(n -> {
          if (n > 0) {
            log.info("removed {} unfinished transfer(s) older than {} min from the code cache {}", n, MAX_AGE_MS / 60_000,
                dir);
          }
        })
        .onFailure(e -> log.warn("could not tidy the code cache {}: {}", dir, e.getMessage()));
  }
}
