package org.parl.job;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The unfinished transfers of the shipped-code cache: a blob is written to {@code <hash>*.part}
 * and renamed into place once complete, so a job process killed while writing leaves its
 * {@code .part} behind. The worker removes those older than a bound ({@link #sweep}) when it
 * starts and from time to time; a write under way is younger than the bound and is left alone.
 */
public final class PartFiles {

  /** How the name of an unfinished transfer ends. */
  public static final String SUFFIX = ".part";

  private PartFiles() {}

  /**
   * Deletes the {@link #SUFFIX} files of {@code dir} last modified more than {@code maxAgeMs}
   * before {@code now}.
   *
   * @return how many were deleted (0 when {@code dir} does not exist)
   */
  public static int sweep(Path dir, long now, long maxAgeMs) throws IOException {
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    List<Path> parts;
    try (Stream<Path> files = Files.list(dir)) {
      parts = files.filter(p -> p.getFileName().toString().endsWith(SUFFIX)).toList();
    }
    int deleted = 0;
    for (Path p : parts) {
      try {
        if (now - Files.getLastModifiedTime(p).toMillis() > maxAgeMs && Files.deleteIfExists(p)) {
          deleted++;
        }
      } catch (NoSuchFileException e) {
        // renamed into place or removed meanwhile
      }
    }
    return deleted;
  }
}
