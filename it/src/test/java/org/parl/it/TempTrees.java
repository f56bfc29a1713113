package org.parl.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removes what a test wrote under a temporary directory of its own. */
final class TempTrees {

  private TempTrees() {}

  /** Deletes {@code dir} and everything under it; nothing when it does not exist. */
  static void delete(Path dir) throws IOException {
    if (dir != null && Files.exists(dir)) {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }
}
