package org.parl.worker;

import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.parl.security.PrivatePaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the job logs of a worker bounded on disk (SPEC §8). A live job's log that passes the cap
 * is rotated by copy-truncate: its last quarter is kept as {@code <log>.1} and the log starts over
 * (the job, which appends, keeps running). Logs of jobs that ended are removed after a while, and
 * only so many are kept. The work runs off the event loop, every {@link #PERIOD_MS}.
 */
final class LogJanitor {

  private static final Logger log = LoggerFactory.getLogger(LogJanitor.class);
  static final long PERIOD_MS = 5_000;

  private final Path dir;
  private final long maxBytes;
  private final long keepMs;
  private final int keepEnded;

  /**
   * @param maxBytes size past which a live job's log is rotated
   * @param keepMs how long the log of an ended job is kept
   * @param keepEnded how many ended jobs' logs are kept at most
   */
  LogJanitor(Path dir, long maxBytes, long keepMs, int keepEnded) {
    this.dir = dir;
    this.maxBytes = maxBytes;
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

  /** One pass: rotates live logs past the cap, removes ended ones past their time or count. */
  void sweep(Set<Path> live, long now) throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    for (Path p : live) {
      if (Files.isRegularFile(p) && Files.size(p) > maxBytes) {
        rotate(p);
      }
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

  /** Keeps the log's last quarter in {@code <log>.1} and truncates the log, which its job goes on appending to. */
  private void rotate(Path p) throws IOException {
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long size = ch.size();
      ByteBuffer tail = ByteBuffer.allocate((int) Math.min(Math.min(size, maxBytes / 4), 16L << 20));
      ch.read(tail, size - tail.capacity());
      tail.flip();
      PrivatePaths.createFileIfAbsent(rotated(p));
      try (FileChannel old = FileChannel.open(rotated(p), StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING)) {
        old.write(tail);
      }
      ch.truncate(0);
    }
    log.info("rotated job log {}: it passed {} bytes; its last part is in {}.1", p.getFileName(), maxBytes, p.getFileName());
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
