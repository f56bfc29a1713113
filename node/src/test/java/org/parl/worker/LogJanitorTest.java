package org.parl.worker;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Job logs on disk: ended ones go by age and count; live ones stay. */
class LogJanitorTest {

  @TempDir
  Path dir;

  @Test
  void endedLogsGoByAgeAndByCount() throws Exception {
    long now = System.currentTimeMillis();
    for (int i = 1; i <= 5; i++) {
      Path p = Files.writeString(dir.resolve("w1-" + i + ".log"), "job " + i);
      Files.setLastModifiedTime(p, FileTime.fromMillis(now - i * 1000L));
    }
    Files.writeString(dir.resolve("w1-5.log.1"), "older part");
    Path live = dir.resolve("w1-9.log");
    Files.writeString(live, "live");
    Files.setLastModifiedTime(live, FileTime.fromMillis(now - 3_600_000));
    new LogJanitor(dir, 4500, 3).sweep(Set.of(live), now);
    assertTrue(Files.exists(dir.resolve("w1-1.log")));
    assertTrue(Files.exists(dir.resolve("w1-3.log")));
    assertFalse(Files.exists(dir.resolve("w1-4.log")), "past the count");
    assertFalse(Files.exists(dir.resolve("w1-5.log")), "past the age");
    assertFalse(Files.exists(dir.resolve("w1-5.log.1")), "with its older part");
    assertTrue(Files.exists(live), "a live job's log stays however old");
  }
}
