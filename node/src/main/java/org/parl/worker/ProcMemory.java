package org.parl.worker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Resident memory of a process, from Linux's {@code /proc/PID/status} (blocking, tiny read). */
final class ProcMemory {

  private ProcMemory() {}

  static Optional<Long> residentKb(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmRSS:")) {
          return Optional.of(Long.parseLong(line.replaceAll("[^0-9]", "")));
        }
      }
    } catch (IOException | NumberFormatException e) {
      // the process is gone, or this is not Linux
    }
    return Optional.empty();
  }
}
