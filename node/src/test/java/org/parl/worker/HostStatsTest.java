package org.parl.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.parl.worker.gpu.GpuDevice;

/** The GPU part of a worker's stats record: fresh figures, or the last good ones marked stale. */
class HostStatsTest {

  @TempDir
  Path tmp;

  private Path script(String body) throws IOException {
    Path s = tmp.resolve("nvidia-smi");
    Files.writeString(s, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(s, PosixFilePermissions.fromString("rwx------"));
    return s;
  }

  private WorkerSettings settings(Path smi, List<GpuDevice> registered) {
    return new WorkerSettings("w-test", "host", "127.0.0.1", 2, List.of(1), registered, tmp.resolve("work"),
        tmp.resolve("code"), smi.toString(), 0);
  }

  private static final String GOOD = "echo '0, GPU-a, Fake, 1000, 10, 1, 0, No, No'\necho '1, GPU-b, Fake, 1000, 20, 2, 0, No, No'";
  private static final String BROKEN = "echo 'NVIDIA-SMI has failed'\nexit 9";

  @Test
  void freshFiguresOfTheLentGpusOnly() throws IOException {
    JsonObject stats = HostStats.read(settings(script(GOOD), List.of()));
    assertFalse(stats.getBoolean("gpuStale"));
    assertNull(stats.getString("gpuProblem"));
    assertEquals(new JsonArray().add(new GpuDevice(1, "GPU-b", "Fake", 1000, 20, 2).toJson()), stats.getJsonArray("gpuDevices"));
  }

  @Test
  void aFailedReadingKeepsTheLastGoodFiguresMarkedStale() throws IOException {
    WorkerSettings s = settings(script(GOOD), List.of());
    HostStats.read(s);
    script(BROKEN);
    JsonObject stats = HostStats.read(s);
    assertTrue(stats.getBoolean("gpuStale"));
    assertTrue(stats.getString("gpuProblem").contains("failed (exit 9): NVIDIA-SMI has failed"), stats.encode());
    assertEquals(20, stats.getJsonArray("gpuDevices").getJsonObject(0).getInteger("memoryUsedMb"));
  }

  @Test
  void withNoGoodReadingTheRegisteredDevicesAreShownStale() throws IOException {
    GpuDevice registered = new GpuDevice(1, "GPU-b", "Fake", 1000, 0, 0);
    JsonObject stats = HostStats.read(settings(script(BROKEN), List.of(registered)));
    assertTrue(stats.getBoolean("gpuStale"));
    assertEquals(new JsonArray().add(registered.toJson()), stats.getJsonArray("gpuDevices"));
  }
}
