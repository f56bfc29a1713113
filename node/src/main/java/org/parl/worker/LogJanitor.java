package org.parl.worker;

import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the job logs of a worker bounded on disk: logs of jobs that ended (and their rotated
 * {@code .1} parts) are removed after a while, and only so many are kept. A live log's size is
 * capped on every write by its {@link CappedLog}, not here. The work runs off the event loop,
 * every {@link #PERIOD_MS}.
 */
final class LogJanitor {

  private static final Logger log = LoggerFactory.getLogger(LogJanitor.class);
  static final long PERIOD_MS = 5_000;

  private final Path dir;
  private final long keepMs;
  private final int keepEnded;

  /**
   * @param keepMs how long the log of an ended job is kept
   * @param keepEnded how many ended jobs' logs are kept at most
   */
  LogJanitor(Path dir, long keepMs, int keepEnded) {
    this.dir = dir;
    this.keepMs = keepMs;
    this.keepEnded = keepEnded;
  }

  /** Checks every {@link #PERIOD_MS}; {@code live} (called on the event loop) names the logs of live jobs. */
  void start(Vertx vertx, Supplier<Set<Path>> live) {
    vertx.setPeriodic(PERIOD_MS, t -> {
      Set<Path> open = live.get();
      vertx.executeBlocking(() -> {
        sweep(open, System.currentTimeMillis());
        return null;
      }, false).onFailure(e -> log.warn("could not tidy the job logs in {}: {}", dir, e.getMessage()));
    });
  }

  /** One pass: removes the logs of ended jobs past their time or count. */
  void sweep(Set<Path> live, long now) throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    List<Path> ended;
    try (Stream<Path> files = Files.list(dir)) {
      ended = files.filter(p -> p.getFileName().toString().endsWith(".log") && !live.contains(p))
          .sorted(Comparator.comparingLong(LogJanitor::mtime).reversed())
          .toList();
    }
    for (int i = 0; i < ended.size(); i++) {
      Path p = ended.get(i);
      if (i >= keepEnded || now - mtime(p) > keepMs) {
        Files.deleteIfExists(p);
        Files.deleteIfExists(rotated(p));
      }
    }
  }

  /** Where the last part of a rotated log is kept. */
  static Path rotated(Path p) {
    return p.resolveSibling(p.getFileName() + ".1");
  }

  private static long mtime(Path p) {
    try {
      return Files.getLastModifiedTime(p).toMillis();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
