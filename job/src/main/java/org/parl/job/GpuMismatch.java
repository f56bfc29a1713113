package org.parl.job;

import java.util.List;
import java.util.Map;

/**
 * What a GPU job tells its worker, once, when the devices the CUDA driver shows it are not its
 * allocation: the worker logs both lists. The create that found it fails with the same lists.
 *
 * @param expected the UUIDs of the job's allocation
 * @param seen the UUIDs the driver shows
 */
public record GpuMismatch(List<String> expected, List<String> seen) {

  public static final String OP_NAME = "gpu-mismatch";

  public GpuMismatch {
    expected = List.copyOf(expected);
    seen = List.copyOf(seen);
  }

  public Map<String, Object> toMap() {
    return Map.of("op", OP_NAME, "expected", expected, "seen", seen);
  }

  /** The message of a control-link map, or null when it is not one. */
  public static GpuMismatch of(Map<String, Object> m) {
    if (!OP_NAME.equals(m.get("op")) || !(m.get("expected") instanceof List<?> e) || !(m.get("seen") instanceof List<?> s)) {
      return null;
    }
    return new GpuMismatch(e.stream().map(String::valueOf).toList(), s.stream().map(String::valueOf).toList());
  }
}
