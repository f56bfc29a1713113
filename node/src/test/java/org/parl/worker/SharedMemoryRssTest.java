package org.parl.worker;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.parl.internal.wire.SharedArea;

/**
 * What {@link MemoryWatch} sees of a shared area: the pages of a mapped file that a process has
 * touched count in its VmRSS on Linux (as RssShmem for tmpfs, RssFile for a disk file), so a job's
 * memory limit covers the area it shares with its client.
 */
@EnabledOnOs(OS.LINUX)
class SharedMemoryRssTest {

  private static final int MB = 1 << 20;

  @TempDir
  Path tmp;

  @Test
  void touchedPagesOfASharedAreaCountInTheResidentMemoryTheWatchReads() throws IOException {
    long pid = ProcessHandle.current().pid();
    Path parent = SharedArea.defaultParent(tmp);
    try (SharedArea area = SharedArea.create(parent, 64 * MB)) {
      area.unlink();
      long before = ProcMemory.residentKb(pid).orElseThrow();
      long shmemBefore = rssShmemKb();
      ByteBuffer all = area.slice(0, area.size());
      for (int i = 0; i < area.size(); i += 4096) {
        all.put(i, (byte) 1);
      }
      long after = ProcMemory.residentKb(pid).orElseThrow();
      assertTrue(after - before >= 48 * 1024, "VmRSS grew by " + (after - before) + " kB for 64 MiB touched");
      if (parent.startsWith("/dev/shm")) {
        long grown = rssShmemKb() - shmemBefore;
        assertTrue(grown >= 60 * 1024, "as shared memory (RssShmem grew by " + grown + " kB)");
      }
    }
  }

  private static long rssShmemKb() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("RssShmem:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    return 0;
  }
}
