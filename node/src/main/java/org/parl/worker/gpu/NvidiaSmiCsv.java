package org.parl.worker.gpu;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Parses what {@code nvidia-smi --query-gpu=index,uuid,name,memory.total,memory.used,utilization.gpu
 * [,ecc.errors.uncorrected.volatile.total,retired_pages.pending,remapped_rows.pending]
 * --format=csv,noheader,nounits} prints, and is lenient where drivers differ: blank lines, spaces,
 * a header line, units after numbers, {@code [N/A]} or {@code [Not Supported]} for a figure a GPU
 * does not report (taken as 0, and as healthy for a health field). Anything that would make the GPU
 * ids wrong (a missing column, an index that is not a number, the same index twice) makes the whole
 * reading a problem instead.
 *
 * <p>A lost GPU: a row whose fields say {@code [GPU is lost]} or {@code Unknown Error} is a device
 * of that index whose health is {@link GpuHealth.State#LOST} (its other fields unread); a line
 * {@code Unable to determine the device handle for GPU <bus id>: ...} names no index and is kept
 * in {@link GpuInventory.Reading#unreadable()}.
 */
final class NvidiaSmiCsv {

  /** Columns after the name: the figures, then with {@code health} the three health fields. */
  private static final int FIGURES = 3;
  private static final int HEALTH = 3;

  private NvidiaSmiCsv() {}

  /** The devices listed by the query without health fields, or the first line that cannot be one. */
  static GpuInventory.Reading parse(String csv) {
    return parse(csv, false);
  }

  /**
   * The devices listed, or the first line that cannot be one.
   *
   * @param health whether the query asked for the three health fields after the figures
   */
  static GpuInventory.Reading parse(String csv, boolean health) {
    List<GpuDevice> devices = new ArrayList<>();
    List<String> unreadable = new ArrayList<>();
    Set<Integer> seen = new HashSet<>();
    for (String line : csv.split("\\R")) {
      if (line.isBlank() || line.strip().startsWith("index,")) {
        continue;
      }
      if (line.strip().startsWith("Unable to determine the device handle")) {
        unreadable.add(line.strip());
        continue;
      }
      String[] f = line.split(",");
      GpuDevice d = lost(line) ? lostDevice(f) : device(f, health ? HEALTH : 0);
      if (d == null) {
        return GpuInventory.Reading.failed("unexpected nvidia-smi line: " + line.strip());
      }
      if (!seen.add(d.index())) {
        return GpuInventory.Reading.failed("nvidia-smi listed GPU " + d.index() + " twice");
      }
      devices.add(d);
    }
    return new GpuInventory.Reading(List.copyOf(devices), java.util.Optional.empty(), false, List.copyOf(unreadable));
  }

  /** Whether nvidia-smi's output says a GPU is lost (it then exits with a status that is not 0). */
  static boolean saysLost(String output) {
    return output.lines().anyMatch(l -> lost(l) || l.strip().startsWith("Unable to determine the device handle"));
  }

  private static boolean lost(String line) {
    String l = line.toLowerCase(Locale.ROOT);
    return l.contains("gpu is lost") || l.contains("unknown error");
  }

  /** A lost GPU of a row that still names its index (and perhaps its UUID), or null. */
  private static GpuDevice lostDevice(String[] f) {
    try {
      int index = Integer.parseInt(f[0].strip());
      String uuid = f.length > 1 && f[1].strip().startsWith("GPU-") ? f[1].strip() : "";
      return new GpuDevice(index, uuid, "", 0, 0, 0, GpuHealth.lost("GPU is lost"), java.util.Optional.empty());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** A device from its fields (a name may hold commas), or null when they do not describe one. */
  private static GpuDevice device(String[] f, int healthFields) {
    int tail = FIGURES + healthFields;
    if (f.length < 3 + tail) {
      return null;
    }
    int n = f.length;
    int figures = n - tail;
    String name = String.join(",", Arrays.asList(f).subList(2, figures)).strip();
    try {
      int index = Integer.parseInt(f[0].strip());
      if (index < 0) {
        return null;
      }
      GpuHealth health = healthFields == 0 ? GpuHealth.HEALTHY : GpuHealth.of(f[n - 3], f[n - 2], f[n - 1]);
      return new GpuDevice(index, f[1].strip(), name, number(f[figures]), number(f[figures + 1]),
          (int) number(f[figures + 2]), health, java.util.Optional.empty());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** A figure, without a unit after it; {@code [N/A]} or {@code [Not Supported]} count as 0. */
  private static long number(String s) {
    String t = s.strip();
    if (t.startsWith("[")) {
      return 0;
    }
    int end = 0;
    while (end < t.length() && (Character.isDigit(t.charAt(end)) || t.charAt(end) == '.')) {
      end++;
    }
    return Math.round(Double.parseDouble(t.substring(0, end)));
  }
}
