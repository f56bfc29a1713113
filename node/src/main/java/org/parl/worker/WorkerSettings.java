package org.parl.worker;

import io.vertx.core.json.JsonArray;
import java.nio.file.Path;
import java.util.List;

/**
 * What a worker lends and where it keeps its files.
 *
 * @param cpus CPUs lent on a CPU cluster (the host's core count is reported on a GPU cluster)
 * @param gpus GPU ids lent on a GPU cluster, empty on a CPU cluster
 * @param gpuDevices the devices nvidia-smi reported, for display
 * @param workDir per-worker folder for job logs and job working directories
 * @param codeCache host-wide folder of shipped code, by content hash
 * @param nvidiaSmi the nvidia-smi binary used for periodic GPU statistics, or null
 * @param warmJobs job processes kept started ahead of demand: that many generic ones on a CPU
 *     cluster; on a GPU cluster any value above 0 keeps one per vacant GPU for 1-GPU actors
 */
public record WorkerSettings(
    String workerId,
    String hostname,
    String host,
    int cpus,
    List<Integer> gpus,
    JsonArray gpuDevices,
    Path workDir,
    Path codeCache,
    String nvidiaSmi,
    int warmJobs) {}
