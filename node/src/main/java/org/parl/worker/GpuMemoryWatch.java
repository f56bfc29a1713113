package org.parl.worker;

import io.vertx.core.Vertx;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import org.parl.job.tree.JobTree;
import org.parl.worker.gpu.GpuInventory;
import org.parl.worker.gpu.GpuProcesses;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds each job to its GPU memory budget ({@code gpuMemoryMb}, docs/contract.md §4.1): every
 * {@link #CHECK_MS} it reads what each process uses on each GPU ({@link GpuProcesses}, under the
 * inventory's enforced deadline, off the event loop), adds it up over the job's whole process tree
 * per GPU, and stops a job whose tree uses more than its budget on one of its GPUs. Sharing a GPU
 * is only safe when each sharer keeps to its budget: no scheduler enforces it otherwise. Acts on the
 * worker verticle's context.
 */
final class GpuMemoryWatch {

  private static final Logger log = LoggerFactory.getLogger(GpuMemoryWatch.class);
  static final long CHECK_MS = 1_000;

  private final Vertx vertx;
  private final JobTable table;
  private final String nvidiaSmi;
  private final BiConsumer<JobProcess, String> kill;
  private boolean reading;
  private String lastProblem;

  /** @param kill kills a process, with the cause its job ends with */
  GpuMemoryWatch(Vertx vertx, JobTable table, String nvidiaSmi, BiConsumer<JobProcess, String> kill) {
    this.vertx = vertx;
    this.table = table;
    this.nvidiaSmi = nvidiaSmi;
    this.kill = kill;
  }

  void start() {
    if (nvidiaSmi != null) {
      vertx.setPeriodic(CHECK_MS, t -> check());
    }
  }

  private void check() {
    Map<JobProcess, JobTree> budgeted = new HashMap<>();
    table.live().forEach(p -> {
      if (p.job() != null && p.job().gpuMemoryMb() > 0 && p.tree() != null && p.state() != JobProcess.State.ENDED) {
        budgeted.put(p, p.tree());
      }
    });
    if (budgeted.isEmpty() || reading) {
      return;
    }
    reading = true;
    vertx.executeBlocking(() -> {
      GpuProcesses.Reading r = GpuProcesses.read(nvidiaSmi, GpuInventory.DEADLINE);
      Map<JobProcess, Map<String, Long>> use = new HashMap<>();
      budgeted.forEach((p, tree) -> {
        Map<String, Long> perGpu = new HashMap<>();
        for (long pid : tree.pids()) {
          for (GpuProcesses.Use u : r.byPid().getOrDefault(pid, java.util.List.of())) {
            perGpu.merge(u.gpuUuid(), u.usedMb().orElse(0), Long::sum);
          }
        }
        use.put(p, perGpu);
      });
      return new Outcome(use, r.problem().orElse(null));
    }).onComplete(ar -> {
      reading = false;
      if (ar.failed()) {
        return;
      }
      Outcome o = ar.result();
      if (o.problem() != null && !o.problem().equals(lastProblem)) {
        log.warn("GPU memory budgets are not enforced while per-process GPU memory cannot be read: {}", o.problem());
      }
      lastProblem = o.problem();
      o.use().forEach((p, perGpu) -> perGpu.forEach((gpu, mb) -> {
        if (mb > p.job().gpuMemoryMb() && p.state() != JobProcess.State.ENDED && p.killCause() == null) {
          kill.accept(p, "GPU memory budget: its processes use " + mb + " MiB of GPU " + gpu + ", over gpuMemoryMb="
              + p.job().gpuMemoryMb());
        }
      }));
    });
  }

  private record Outcome(Map<JobProcess, Map<String, Long>> use, String problem) {}
}
