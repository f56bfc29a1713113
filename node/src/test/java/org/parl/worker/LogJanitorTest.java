package org.parl.worker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Job logs on disk: a live one past the cap keeps its last part and goes on; ended ones go by age and count. */
class LogJanitorTest {

  @TempDir
  Path dir;

  @Test
  void aLiveLogPastTheCapKeepsItsLastPartAndTheJobGoesOnAppending() throws Exception {
    Path live = dir.resolve("w1-1.log");
    byte[] data = new byte[5000];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) ('a' + i % 26);
    }
    try (OutputStream job = Files.newOutputStream(live, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
      job.write(data);
      job.flush();
      new LogJanitor(dir, 4000, 60_000, 10).sweep(Set.of(live), System.currentTimeMillis());
      assertEquals(0, Files.size(live));
      assertArrayEquals(Arrays.copyOfRange(data, 4000, 5000), Files.readAllBytes(LogJanitor.rotated(live)));
      job.write("after\n".getBytes());
      job.flush();
      assertEquals("after\n", Files.readString(live), "the job's appends land at the start of the emptied log");
    }
    new LogJanitor(dir, 4000, 60_000, 10).sweep(Set.of(live), System.currentTimeMillis());
    assertTrue(Files.exists(live), "a log under the cap is left alone");
  }

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
    new LogJanitor(dir, 1 << 20, 4500, 3).sweep(Set.of(live), now);
    assertTrue(Files.exists(dir.resolve("w1-1.log")));
    assertTrue(Files.exists(dir.resolve("w1-3.log")));
    assertFalse(Files.exists(dir.resolve("w1-4.log")), "past the count");
    assertFalse(Files.exists(dir.resolve("w1-5.log")), "past the age");
    assertFalse(Files.exists(dir.resolve("w1-5.log.1")), "with its older part");
    assertTrue(Files.exists(live), "a live job's log stays however old");
  }
}
