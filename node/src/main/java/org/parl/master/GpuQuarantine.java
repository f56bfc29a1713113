package org.parl.master;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.parl.internal.wire.gateway.GpuFault;

/**
 * The JobCenter's record of quarantined GPUs (docs/contract.md §11): for each, its fault, and since when its
 * worker has reported it healthy again. A GPU comes back once it has been healthy for
 * {@link #healthyAfterNanos}, or by hand ({@code parl undrain WORKER:GPU}). Not thread-safe: the
 * JobCenter's event loop only.
 */
final class GpuQuarantine {

  /** The system property that shortens (or lengthens) the healthy time, in milliseconds: for tests. */
  static final String HEALTHY_AFTER_PROPERTY = "parl.gpu.healthyAfterMs";
  /** How long a quarantined GPU must have been healthy before it is lent again, by default. */
  static final long HEALTHY_AFTER_MS = 60_000;

  private record Entry(GpuFault fault, long healthySinceNanos, boolean healthy) {}

  private final long healthyAfterNanos;
  private final Map<String, Map<Integer, Entry>> byWorker = new LinkedHashMap<>();

  GpuQuarantine(long healthyAfterMs) {
    this.healthyAfterNanos = healthyAfterMs * 1_000_000L;
  }

  /** With the healthy time of the system property {@value #HEALTHY_AFTER_PROPERTY}, else {@value #HEALTHY_AFTER_MS} ms. */
  static GpuQuarantine configured() {
    return new GpuQuarantine(Math.max(0, Long.getLong(HEALTHY_AFTER_PROPERTY, HEALTHY_AFTER_MS)));
  }

  long healthyAfterMs() {
    return healthyAfterNanos / 1_000_000L;
  }

  Optional<GpuFault> fault(String workerId, int index) {
    return Optional.ofNullable(byWorker.getOrDefault(workerId, Map.of()).get(index)).map(Entry::fault);
  }

  /** Records a fault; true when the GPU was not quarantined before (the fault text of one that was is updated). */
  boolean faulty(GpuFault fault) {
    Entry old = byWorker.computeIfAbsent(fault.workerId(), w -> new HashMap<>())
        .put(fault.index(), new Entry(fault, 0, false));
    return old == null;
  }

  /** A quarantined GPU reads healthy: its clock starts, unless it runs already. True when it started now. */
  boolean healthy(String workerId, int index, long nowNanos) {
    Map<Integer, Entry> gpus = byWorker.get(workerId);
    Entry e = gpus == null ? null : gpus.get(index);
    if (e == null || e.healthy()) {
      return false;
    }
    gpus.put(index, new Entry(e.fault(), nowNanos, true));
    return true;
  }

  /** Lifts a quarantine (by hand, or once healthy long enough); its fault, or empty if there was none. */
  Optional<GpuFault> lift(String workerId, int index) {
    Map<Integer, Entry> gpus = byWorker.get(workerId);
    Entry e = gpus == null ? null : gpus.remove(index);
    if (gpus != null && gpus.isEmpty()) {
      byWorker.remove(workerId);
    }
    return Optional.ofNullable(e).map(Entry::fault);
  }

  /** Forgets a worker that left. */
  void forget(String workerId) {
    byWorker.remove(workerId);
  }

  /** The quarantined GPUs that have been healthy for long enough at {@code nowNanos}: lift them. */
  List<GpuFault> due(long nowNanos) {
    List<GpuFault> out = new ArrayList<>();
    byWorker.values().forEach(gpus -> gpus.values().forEach(e -> {
      if (e.healthy() && nowNanos - e.healthySinceNanos() >= healthyAfterNanos) {
        out.add(e.fault());
      }
    }));
    return out;
  }
}
