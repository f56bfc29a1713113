package org.parl.worker.gpu;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeoutException;
import org.parl.command.TimedCommand;

/**
 * The GPU memory each process uses, from {@code nvidia-smi --query-compute-apps=pid,gpu_uuid,used_memory
 * --format=csv,noheader,nounits}, under an enforced deadline ({@link TimedCommand}): what a GPU
 * memory budget is enforced from. Pids are those of the host's (nvidia-smi's) pid namespace.
 * Blocking: call it off the event loop.
 */
public final class GpuProcesses {

  static final String QUERY = "--query-compute-apps=pid,gpu_uuid,used_memory";

  /**
   * One process's use of one GPU.
   *
   * @param gpuUuid the GPU's UUID (for a MIG instance, drivers give its parent's)
   * @param usedMb empty where the driver does not report it ({@code [N/A]}, as under MIG)
   */
  public record Use(String gpuUuid, OptionalLong usedMb) {}

  /**
   * A reading: per pid its uses (a process on two GPUs has two), in the order listed; or why there is none.
   */
  public record Reading(Map<Long, List<Use>> byPid, Optional<String> problem) {

    public Reading {
      byPid = Map.copyOf(byPid);
    }

    static Reading failed(String problem) {
      return new Reading(Map.of(), Optional.of(problem));
    }

    /** What a process uses on all its GPUs together, in MiB (figures the driver does not give count 0). */
    public long totalMb(long pid) {
      return byPid.getOrDefault(pid, List.of()).stream().mapToLong(u -> u.usedMb().orElse(0)).sum();
    }
  }

  private GpuProcesses() {}

  /** Runs the query with {@code binary} under {@code deadline}. */
  public static Reading read(String binary, Duration deadline) {
    TimedCommand.Outcome out;
    try {
      out = TimedCommand.run(List.of(binary, QUERY, GpuInventory.FORMAT), deadline);
    } catch (TimeoutException e) {
      return Reading.failed(binary + " did not answer within " + deadline.toMillis() + " ms; it was killed");
    } catch (IOException e) {
      return Reading.failed(binary + " cannot be run: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Reading.failed("interrupted while running " + binary);
    }
    if (out.exitCode() != 0) {
      return Reading.failed(binary + " failed (exit " + out.exitCode() + "): " + out.output().strip().lines().findFirst().orElse(""));
    }
    return parse(out.output());
  }

  /** Parses the query's output; a line that is not {@code pid, uuid, MiB} makes the whole reading a problem. */
  static Reading parse(String csv) {
    Map<Long, List<Use>> byPid = new LinkedHashMap<>();
    for (String line : csv.split("\\R")) {
      String t = line.strip();
      if (t.isEmpty() || t.startsWith("pid,") || t.startsWith("No running processes found")) {
        continue;
      }
      String[] f = t.split(",");
      if (f.length != 3) {
        return Reading.failed("unexpected nvidia-smi line: " + t);
      }
      try {
        long pid = Long.parseLong(f[0].strip());
        String mb = f[2].strip();
        OptionalLong used = mb.startsWith("[") ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(mb.split(" ")[0]));
        byPid.computeIfAbsent(pid, p -> new ArrayList<>()).add(new Use(f[1].strip(), used));
      } catch (NumberFormatException e) {
        return Reading.failed("unexpected nvidia-smi line: " + t);
      }
    }
    Map<Long, List<Use>> frozen = new LinkedHashMap<>();
    byPid.forEach((pid, uses) -> frozen.put(pid, List.copyOf(uses)));
    return new Reading(frozen, Optional.empty());
  }
}
