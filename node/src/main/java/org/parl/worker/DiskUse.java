package org.parl.worker;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.parl.limits.LimitSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a worker's disk caps (docs/contract.md §8) hold now, for {@code /metrics}: its job logs (all of them,
 * and the largest live one, which its {@link CappedLog} rotates at the per-job cap) and its host's
 * shipped-code cache, each next to its cap. Blocking (lists folders): call it off the event loop.
 */
final class DiskUse {

  private static final Logger log = LoggerFactory.getLogger(DiskUse.class);
  /** The caps this worker runs with, read once as {@link JobSupervisor} reads them. */
  private static volatile LimitSettings limits;

  private DiskUse() {}

  /** {@code {logBytes, largestLogBytes, logMaxBytes, codeCacheBytes, codeCacheMaxBytes}}. */
  static JsonObject read(WorkerSettings s) {
    return read(s.workDir().resolve("logs"), s.codeCache(), limits());
  }

  static JsonObject read(Path logs, Path codeCache, LimitSettings caps) {
    List<Long> logSizes = sizes(logs, name -> name.endsWith(".log") || name.endsWith(".log.1"));
    long largest = sizes(logs, name -> name.endsWith(".log")).stream().mapToLong(Long::longValue).max().orElse(0);
    return new JsonObject()
        .put("logBytes", logSizes.stream().mapToLong(Long::longValue).sum())
        .put("largestLogBytes", largest)
        .put("logMaxBytes", caps.logMaxBytes())
        .put("codeCacheBytes", sizes(codeCache, name -> name.endsWith(".jar")).stream().mapToLong(Long::longValue).sum())
        .put("codeCacheMaxBytes", caps.codeCacheMaxBytes());
  }

  private static LimitSettings limits() {
    if (limits == null) {
      try {
        limits = LimitSettings.load();
      } catch (IllegalArgumentException | UncheckedIOException e) {
        limits = LimitSettings.DEFAULTS; // JobSupervisor says so in the log
      }
    }
    return limits;
  }

  /** Sizes of the files in {@code dir} whose names pass {@code names}; none when there is no such folder. */
  private static List<Long> sizes(Path dir, Predicate<String> names) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> names.test(p.getFileName().toString())).map(DiskUse::size).toList();
    } catch (IOException | UncheckedIOException e) {
      log.debug("could not measure {}: {}", dir, e.getMessage());
      return List.of();
    }
  }

  /** 0 for a file removed meanwhile (a log tidied, a blob evicted). */
  private static long size(Path p) {
    try {
      return Files.size(p);
    } catch (NoSuchFileException e) {
      return 0;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
