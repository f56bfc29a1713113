package org.parl.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.parl.worker.LogTail;

/** The worker's log reading that the monitor's log and download endpoints rely on. */
class LogTailTest {

  @TempDir
  Path dir;

  @Test
  void lastLinesOfASmallAndALargeLog() throws Exception {
    Path small = write("small.log", 10, true);
    assertEquals("line 9\n", LogTail.read(small, 1));
    assertEquals("line 7\nline 8\nline 9\n", LogTail.read(small, 3));
    assertEquals(Files.readString(small), LogTail.read(small, 500));

    Path large = write("large.log", 5_000, true); // spans many 8 KiB chunks
    assertEquals("line 4998\nline 4999\n", LogTail.read(large, 2));
    String tail = LogTail.read(large, 500);
    assertEquals(500, tail.split("\n").length);
    assertTrue(tail.startsWith("line 4500\n"), tail.substring(0, 20));
  }

  @Test
  void aLastLineWithoutNewlineCounts() throws Exception {
    Path p = write("open.log", 4, false);
    assertEquals("line 3", LogTail.read(p, 1));
    assertEquals("line 2\nline 3", LogTail.read(p, 2));
  }

  @Test
  void downloadsTheWholeLogOrItsEnd() throws Exception {
    Path p = write("whole.log", 1_000, true);
    assertEquals(Files.readString(p), LogTail.readAll(p, 16 << 20));
    String cut = LogTail.readAll(p, 100);
    assertTrue(cut.startsWith("[parl: the first "), cut);
    assertTrue(cut.endsWith("line 999\n"));
    assertEquals("", LogTail.readAll(dir.resolve("missing.log"), 100));
  }

  private Path write(String name, int lines, boolean finalNewline) throws Exception {
    String text = IntStream.range(0, lines).mapToObj(i -> "line " + i).collect(Collectors.joining("\n"));
    return Files.writeString(dir.resolve(name), finalNewline ? text + "\n" : text);
  }
}
