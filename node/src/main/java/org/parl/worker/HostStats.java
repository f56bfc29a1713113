package org.parl.worker;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What a worker reports about its host every few seconds: memory, load, and per-GPU memory and
 * utilisation from nvidia-smi. Blocking (reads /proc, runs nvidia-smi): call it off the event loop.
 */
final class HostStats {

  private HostStats() {}

  static JsonObject read(WorkerSettings s) {
    JsonObject stats = new JsonObject()
        .put("workerId", s.workerId())
        .put("memory", memory())
        .put("load", load())
        .put("updatedAt", System.currentTimeMillis());
    if (s.nvidiaSmi() != null) {
      GpuInventory.Reading r = new GpuInventory(s.nvidiaSmi()).read();
      JsonArray gpus = new JsonArray();
      r.devices().stream().filter(d -> s.gpus().contains(d.index())).forEach(d -> gpus.add(d.toJson()));
      stats.put("gpuDevices", r.problem().isPresent() ? s.gpuDevices() : gpus);
      r.problem().ifPresent(p -> stats.put("gpuProblem", p));
    }
    return stats;
  }

  private static JsonObject memory() {
    long total = 0;
    long available = 0;
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          total = kb(line);
        } else if (line.startsWith("MemAvailable:")) {
          available = kb(line);
        }
      }
    } catch (IOException | NumberFormatException e) {
      // not Linux: report what the JVM knows
    }
    return new JsonObject().put("totalMb", total / 1024).put("usedMb", (total - available) / 1024);
  }

  private static long kb(String line) {
    return Long.parseLong(line.replaceAll("[^0-9]", ""));
  }

  private static double load() {
    try {
      List<String> lines = Files.readAllLines(Path.of("/proc/loadavg"));
      return Double.parseDouble(lines.get(0).split(" ")[0]);
    } catch (IOException | RuntimeException e) {
      return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
  }
}
