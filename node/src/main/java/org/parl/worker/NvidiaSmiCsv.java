package org.parl.worker;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Parses what {@code nvidia-smi --query-gpu=index,uuid,name,memory.total,memory.used,utilization.gpu
 * --format=csv,noheader,nounits} prints, and is lenient where drivers differ: blank lines, spaces,
 * a header line, units after numbers, {@code [N/A]} or {@code [Not Supported]} for a figure a GPU
 * does not report (taken as 0). Anything that would make the GPU ids wrong (a missing column, an
 * index that is not a number, the same index twice) makes the whole reading a problem instead.
 */
final class NvidiaSmiCsv {

  private NvidiaSmiCsv() {}

  /** The devices listed, or the first line that cannot be one. */
  static GpuInventory.Reading parse(String csv) {
    List<GpuDevice> devices = new ArrayList<>();
    Set<Integer> seen = new HashSet<>();
    for (String line : csv.split("\\R")) {
      if (line.isBlank() || line.strip().startsWith("index,")) {
        continue;
      }
      GpuDevice d = device(line.split(","));
      if (d == null) {
        return GpuInventory.Reading.failed("unexpected nvidia-smi line: " + line.strip());
      }
      if (!seen.add(d.index())) {
        return GpuInventory.Reading.failed("nvidia-smi listed GPU " + d.index() + " twice");
      }
      devices.add(d);
    }
    return GpuInventory.Reading.of(devices);
  }

  /** A device from its fields (a name may hold commas), or null when they do not describe one. */
  private static GpuDevice device(String[] f) {
    if (f.length < 6) {
      return null;
    }
    int n = f.length;
    String name = String.join(",", Arrays.asList(f).subList(2, n - 3)).strip();
    try {
      int index = Integer.parseInt(f[0].strip());
      if (index < 0) {
        return null;
      }
      return new GpuDevice(index, f[1].strip(), name, number(f[n - 3]), number(f[n - 2]), (int) number(f[n - 1]));
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
