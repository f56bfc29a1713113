package org.parl.worker.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Per-process GPU memory from {@code nvidia-smi --query-compute-apps}. */
class GpuProcessesTest {

  @TempDir
  Path tmp;

  @Test
  void eachPidWithItsUsesOnEachGpu() {
    GpuProcesses.Reading r = GpuProcesses.parse("""
        4242, GPU-a, 1024
        4242, GPU-b, 512
        77, MIG-c, [N/A]

        """);
    assertEquals(Optional.empty(), r.problem());
    assertEquals(Map.of(4242L, List.of(new GpuProcesses.Use("GPU-a", OptionalLong.of(1024)),
        new GpuProcesses.Use("GPU-b", OptionalLong.of(512))), 77L, List.of(new GpuProcesses.Use("MIG-c", OptionalLong.empty()))),
        r.byPid());
    assertEquals(1536, r.totalMb(4242));
    assertEquals(0, r.totalMb(77), "a figure the driver does not give counts 0");
    assertEquals(0, r.totalMb(1));
  }

  @Test
  void noProcessIsAnEmptyReadingAndALineOfNoProcessIsAProblem() {
    assertEquals(Map.of(), GpuProcesses.parse("").byPid());
    assertEquals(Map.of(), GpuProcesses.parse("No running processes found\n").byPid());
    assertTrue(GpuProcesses.parse("12, GPU-a").problem().orElse("").contains("unexpected nvidia-smi line: 12, GPU-a"));
    assertTrue(GpuProcesses.parse("x, GPU-a, 3").problem().isPresent());
  }

  @Test
  void theQueryRunsUnderItsDeadline() throws IOException {
    Path smi = tmp.resolve("nvidia-smi");
    Files.writeString(smi, "#!/bin/sh\n[ \"$1\" = " + GpuProcesses.QUERY + " ] && [ \"$2\" = --format=csv,noheader,nounits ]"
        + " || exit 2\necho '99, GPU-a, 300'\n");
    Files.setPosixFilePermissions(smi, PosixFilePermissions.fromString("rwx------"));
    assertEquals(300, GpuProcesses.read(smi.toString(), Duration.ofSeconds(5)).totalMb(99));
    Files.writeString(smi, "#!/bin/sh\nsleep 30\n");
    long t0 = System.nanoTime();
    GpuProcesses.Reading r = GpuProcesses.read(smi.toString(), Duration.ofMillis(300));
    assertTrue(r.problem().orElse("").contains("did not answer within 300 ms"), r.problem().toString());
    assertTrue(System.nanoTime() - t0 < 5_000_000_000L);
  }
}
