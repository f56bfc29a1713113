package org.parl.worker;

import java.nio.file.Path;
import java.util.List;
import org.parl.worker.gpu.GpuDevice;
import org.parl.worker.gpu.GpuPolicy;

/**
 * What a worker lends and where it keeps its files.
 *
 * @param cpus CPUs lent on a CPU cluster (the host's core count is reported on a GPU cluster)
 * @param gpus GPU ids lent on a GPU cluster, empty on a CPU cluster
 * @param gpuDevices the units it lends as nvidia-smi described them when it started (empty without an inventory)
 * @param workDir per-worker folder for job logs and job working directories
 * @param codeCache host-wide folder of shipped code, by content hash
 * @param nvidiaSmi the nvidia-smi binary used for periodic GPU statistics, or null
 * @param warmJobs job processes kept started ahead of demand: that many generic ones on a CPU
 *     cluster; on a GPU cluster any value above 0 keeps one per vacant GPU for 1-GPU actors
 * @param gpuPolicy what happens to jobs on a faulty GPU, and how jobs are told their GPUs
 */
public record WorkerSettings(
    String workerId,
    String hostname,
    String host,
    int cpus,
    List<Integer> gpus,
    List<GpuDevice> gpuDevices,
    Path workDir,
    Path codeCache,
    String nvidiaSmi,
    int warmJobs,
    GpuPolicy gpuPolicy) {

  public WorkerSettings {
    gpuDevices = List.copyOf(gpuDevices);
    gpuPolicy = gpuPolicy == null ? GpuPolicy.DEFAULT : gpuPolicy;
  }

  /** With the default {@link GpuPolicy}. */
  public WorkerSettings(String workerId, String hostname, String host, int cpus, List<Integer> gpus, List<GpuDevice> gpuDevices,
      Path workDir, Path codeCache, String nvidiaSmi, int warmJobs) {
    this(workerId, hostname, host, cpus, gpus, gpuDevices, workDir, codeCache, nvidiaSmi, warmJobs, GpuPolicy.DEFAULT);
  }

  /** The same settings with another GPU policy. */
  public WorkerSettings with(GpuPolicy policy) {
    return new WorkerSettings(workerId, hostname, host, cpus, gpus, gpuDevices, workDir, codeCache, nvidiaSmi, warmJobs,
        policy);
  }
}
