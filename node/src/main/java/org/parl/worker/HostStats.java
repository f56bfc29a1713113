package org.parl.worker;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.parl.worker.gpu.GpuDevice;
import org.parl.worker.gpu.GpuInventory;

/**
 * What a worker reports about its host every few seconds: memory, load, what its disk caps hold
 * ({@link DiskUse}), and per-GPU memory and utilisation from nvidia-smi. When nvidia-smi fails or hangs, the GPU figures are the last good
 * ones (else those of the worker's registration), {@code gpuStale} is true and {@code gpuProblem}
 * says why. Blocking (reads /proc, runs nvidia-smi): call it off the event loop.
 */
final class HostStats {

  /** One inventory per nvidia-smi binary, so that the last good reading outlives one call. */
  private static final Map<String, GpuInventory> INVENTORIES = new ConcurrentHashMap<>();

  private HostStats() {}

  /**
   * One reading: the statistics, and the GPU inventory they were made from.
   *
   * @param gpus the inventory reading, or null when the worker has no nvidia-smi to read
   */
  record Sample(JsonObject stats, GpuInventory.Reading gpus) {}

  static JsonObject read(WorkerSettings s) {
    return sample(s).stats();
  }

  static Sample sample(WorkerSettings s) {
    GpuInventory.Reading reading = null;
    JsonObject stats = new JsonObject()
        .put("workerId", s.workerId())
        .put("memory", memory())
        .put("load", load())
        .put("disk", DiskUse.read(s))
        .put("updatedAt", System.currentTimeMillis());
    if (s.nvidiaSmi() != null) {
      GpuInventory.Reading r = INVENTORIES.computeIfAbsent(s.nvidiaSmi(), GpuInventory::new).read();
      reading = r;
      boolean noneRead = r.problem().isPresent() && !r.stale();
      List<GpuDevice> shown = noneRead ? s.gpuDevices()
          : r.devices().stream().filter(d -> s.gpus().contains(d.index())).toList();
      JsonArray gpus = new JsonArray();
      shown.forEach(d -> gpus.add(d.toJson()));
      stats.put("gpuDevices", gpus);
      stats.put("gpuStale", r.problem().isPresent());
      r.problem().ifPresent(p -> stats.put("gpuProblem", p));
    }
    return new Sample(stats, reading);
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
