package org.parl.scheduler;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.parl.internal.resources.ResourceRequest;

/**
 * The shapes of the workers of a pool (CPUs, and the model and memory of each GPU), counted, so that
 * "could any worker ever hold this request?" costs a pass over the distinct shapes rather than over
 * the workers: a cluster of ten thousand alike workers has one shape.
 */
final class PoolShapes {

  /** What one GPU is, for feasibility: its model and total memory. */
  record GpuKind(String model, long memoryMb) {

    boolean serves(ResourceRequest r) {
      return matches(r.gpuModel()) && (r.gpuMemoryMb() == 0 || memoryMb >= r.gpuMemoryMb());
    }

    boolean matches(String wanted) {
      return GpuSpec.modelMatches(model, wanted);
    }
  }

  /** A worker's shape; workers of one shape could hold exactly the same requests. */
  record Shape(int cpus, List<GpuKind> gpus) {

    static Shape of(int cpus, GpuSpec[] specs) {
      GpuKind[] kinds = new GpuKind[specs.length];
      for (int i = 0; i < specs.length; i++) {
        kinds[i] = new GpuKind(specs[i].model(), specs[i].memoryMb());
      }
      Arrays.sort(kinds, Comparator.comparing(GpuKind::model).thenComparingLong(GpuKind::memoryMb));
      return new Shape(cpus, List.of(kinds));
    }

    int serving(ResourceRequest r) {
      int n = 0;
      for (GpuKind g : gpus) {
        if (g.serves(r)) {
          n++;
        }
      }
      return n;
    }

    /** Whether a worker of this shape, with everything vacant and in service, holds {@code r}. */
    boolean holds(ResourceRequest r) {
      return cpus >= r.cpus() && serving(r) >= r.gpuCount();
    }
  }

  /** Why a request can never fit, and which class of reason that is. */
  record Verdict(Stop kind, String sentence) {}

  /** Workers by shape, in the order each shape first joined; the first id of a set names the shape. */
  private final Map<Shape, LinkedHashSet<String>> shapes = new LinkedHashMap<>();
  private long version;

  void add(String workerId, Shape shape) {
    shapes.computeIfAbsent(shape, s -> new LinkedHashSet<>()).add(workerId);
    version++;
  }

  void remove(String workerId, Shape shape) {
    LinkedHashSet<String> ids = shapes.get(shape);
    if (ids != null && ids.remove(workerId) && ids.isEmpty()) {
      shapes.remove(shape);
    }
    version++;
  }

  /** Changes whenever a worker joins or leaves, so that callers may cache feasibility. */
  long version() {
    return version;
  }

  int workerCount() {
    int n = 0;
    for (LinkedHashSet<String> ids : shapes.values()) {
      n += ids.size();
    }
    return n;
  }

  boolean canEverFit(ResourceRequest r) {
    for (Shape s : shapes.keySet()) {
      if (s.holds(r)) {
        return true;
      }
    }
    return false;
  }

  /** Empty when some shape holds {@code r}, else the reason, naming the largest worker or the models present. */
  Optional<Verdict> neverFits(ResourceRequest r) {
    if (canEverFit(r)) {
      return Optional.empty();
    }
    return Optional.of(why(r));
  }

  private Verdict why(ResourceRequest r) {
    if (shapes.isEmpty()) {
      return new Verdict(Stop.CAPACITY, "no worker is in the pool");
    }
    boolean anyCpus = false;
    boolean anyGpus = false;
    boolean anyModel = false;
    long maxMemory = 0;
    TreeSet<String> models = new TreeSet<>();
    for (Shape s : shapes.keySet()) {
      anyCpus |= s.cpus() > 0;
      for (GpuKind g : s.gpus()) {
        anyGpus = true;
        if (!g.model().isEmpty()) {
          models.add(g.model());
        }
        if (g.matches(r.gpuModel())) {
          anyModel = true;
          maxMemory = Math.max(maxMemory, g.memoryMb());
        }
      }
    }
    if (r.cpus() > 0 && !anyCpus) {
      return new Verdict(Stop.CAPACITY, "no worker lends CPUs");
    }
    if (r.wantsGpu() && !anyGpus) {
      return new Verdict(Stop.CAPACITY, "no worker lends GPUs");
    }
    if (r.wantsGpu() && !anyModel) {
      return new Verdict(Stop.MODEL, "no GPU of model " + r.gpuModel() + " is in the pool; models present: "
          + (models.isEmpty() ? "none reported" : String.join(", ", models)));
    }
    if (r.wantsGpu() && r.gpuMemoryMb() > maxMemory) {
      return new Verdict(Stop.MEMORY, "no GPU" + (r.gpuModel() == null ? "" : " of model " + r.gpuModel()) + " has "
          + r.gpuMemoryMb() + " MiB of memory; the largest GPU memory is " + maxMemory + " MiB");
    }
    String what = Texts.gpuKind(r);
    if (r.gpus() > 0) {
      Shape largest = null;
      int most = -1;
      for (Shape s : shapes.keySet()) {
        int n = s.serving(r);
        if (n > most) {
          most = n;
          largest = s;
        }
      }
      if (most < r.gpus()) {
        return new Verdict(Stop.CAPACITY, "no worker lends " + Texts.count(r.gpus(), what) + "; the largest worker, "
            + first(largest) + ", lends " + Texts.count(most, what));
      }
    }
    // The GPUs exist somewhere, so the CPUs are short on every worker that has them.
    Shape largest = null;
    int most = -1;
    for (Shape s : shapes.keySet()) {
      if (s.serving(r) >= r.gpuCount() && s.cpus() > most) {
        most = s.cpus();
        largest = s;
      }
    }
    if (!r.wantsGpu()) {
      return new Verdict(Stop.CAPACITY, "no worker lends " + Texts.count(r.cpus(), "CPU") + "; the largest worker, "
          + first(largest) + ", lends " + Texts.count(most, "CPU"));
    }
    return new Verdict(Stop.CAPACITY, "no worker with " + Texts.count(r.gpuCount(), what) + " lends "
        + Texts.count(r.cpus(), "CPU") + "; the largest such worker, " + first(largest) + ", lends " + Texts.count(most, "CPU"));
  }

  /** One worker of each shape, in the order the shapes first joined. */
  List<String> representatives() {
    List<String> ids = new ArrayList<>(shapes.size());
    for (LinkedHashSet<String> set : shapes.values()) {
      ids.add(set.iterator().next());
    }
    return ids;
  }

  /** How many workers could, empty and in service, hold at least one of {@code requests}. */
  int workersHoldingAny(List<ResourceRequest> requests) {
    int n = 0;
    for (Map.Entry<Shape, LinkedHashSet<String>> e : shapes.entrySet()) {
      for (ResourceRequest r : requests) {
        if (e.getKey().holds(r)) {
          n += e.getValue().size();
          break;
        }
      }
    }
    return n;
  }

  /** The worker with the most GPUs (then CPUs), in words: "w1, which lends 8 CPUs and 4 GPUs"; null when none. */
  String largest() {
    Shape best = null;
    for (Shape s : shapes.keySet()) {
      if (best == null || s.gpus().size() > best.gpus().size()
          || (s.gpus().size() == best.gpus().size() && s.cpus() > best.cpus())) {
        best = s;
      }
    }
    return best == null ? null : first(best) + ", which lends " + Texts.count(best.cpus(), "CPU") + " and "
        + Texts.count(best.gpus().size(), "GPU");
  }

  private String first(Shape s) {
    return shapes.get(s).iterator().next();
  }
}
