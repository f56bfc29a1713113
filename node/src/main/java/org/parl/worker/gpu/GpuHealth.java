package org.parl.worker.gpu;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The health of one GPU (or MIG unit, which shares its parent's) as the inventory poll read it:
 * healthy, faulty with the fault in words, or lost (the driver cannot read it at all).
 *
 * @param fault empty when healthy; else what is wrong, such as {@code uncorrected volatile ECC errors: 2}
 */
public record GpuHealth(State state, String fault) {

  /** What the pool does with a GPU depends only on this. */
  public enum State { HEALTHY, FAULTY, LOST }

  /** A GPU with nothing wrong. */
  public static final GpuHealth HEALTHY = new GpuHealth(State.HEALTHY, "");

  /** A null fault is none. */
  public GpuHealth {
    fault = fault == null ? "" : fault;
  }

  /** A GPU the driver cannot read at all, and why. */
  public static GpuHealth lost(String why) {
    return new GpuHealth(State.LOST, why);
  }

  /** Whether nothing is wrong with the GPU. */
  public boolean healthy() {
    return state == State.HEALTHY;
  }

  /**
   * The health that the three health fields of the query say. A field a GPU does not support
   * ({@code [N/A]}, {@code [Not Supported]}) says nothing, so it counts as healthy.
   *
   * @param ecc {@code ecc.errors.uncorrected.volatile.total}
   * @param retiredPending {@code retired_pages.pending}
   * @param remapPending {@code remapped_rows.pending}
   */
  static GpuHealth of(String ecc, String retiredPending, String remapPending) {
    List<String> faults = new ArrayList<>();
    long errors = count(ecc);
    if (errors > 0) {
      faults.add("uncorrected volatile ECC errors: " + errors);
    }
    if (yes(retiredPending)) {
      faults.add("pending retired pages");
    }
    if (yes(remapPending)) {
      faults.add("pending row remaps");
    }
    return faults.isEmpty() ? HEALTHY : new GpuHealth(State.FAULTY, String.join("; ", faults));
  }

  private static long count(String s) {
    try {
      return Long.parseLong(s.strip());
    } catch (NumberFormatException e) {
      return 0; // [N/A], [Not Supported]: not reported
    }
  }

  private static boolean yes(String s) {
    String t = s.strip().toLowerCase(Locale.ROOT);
    return t.equals("yes") || t.equals("1") || t.equals("true");
  }

  /** The health in a worker's host statistics: its state in lower case and the fault, if any. */
  public JsonObject toJson() {
    JsonObject j = new JsonObject().put("state", state.name().toLowerCase(Locale.ROOT));
    return fault.isEmpty() ? j : j.put("fault", fault);
  }
}
