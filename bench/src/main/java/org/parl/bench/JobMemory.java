package org.parl.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;

/** Resident memory of job processes, as {@code /proc/PID/status} says ({@code VmRSS}). */
final class JobMemory {

  private JobMemory() {}

  /** The median VmRSS of the processes still alive, in MB (2^20 bytes); empty when none is. */
  static OptionalDouble medianMb(List<ProcessHandle> processes) {
    double[] mb = processes.stream().mapToLong(JobMemory::rssKb).filter(kb -> kb > 0).mapToDouble(kb -> kb / 1024.0)
        .sorted().toArray();
    if (mb.length == 0) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(mb.length % 2 == 1 ? mb[mb.length / 2] : (mb[mb.length / 2 - 1] + mb[mb.length / 2]) / 2);
  }

  /** VmRSS in kB; 0 when the process is gone. */
  static long rssKb(ProcessHandle p) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(p.pid()), "status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(Arrays.stream(line.substring(6).trim().split("\\s+")).findFirst().orElse("0"));
        }
      }
      return 0;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }
}
