package org.parl.wire.gateway;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.parl.wire.Checks;

/**
 * A worker as the JobCenter sees it: who it is, what it lends, and PARL's vacant/used GPU lists.
 * The JobCenter publishes it in the cluster map {@code parl.workers} (read by monitors) and sends
 * it in snapshots and status answers.
 *
 * @param hostCpus the host's core count (the CPUs lent on a CPU cluster)
 * @param jobs the ids of the jobs holding its resources
 */
public record WorkerState(
    String id,
    String nodeId,
    String hostname,
    String address,
    Cpus cpus,
    int hostCpus,
    @JsonProperty("worker_vacant_gpus") List<Integer> vacantGpus,
    @JsonProperty("worker_used_gpus") List<Integer> usedGpus,
    List<GpuCard> gpuDevices,
    List<String> jobs) {

  /** Most GPUs one worker may lend. */
  public static final int MAX_GPUS = 1024;
  /** Most jobs one worker may hold. */
  public static final int MAX_JOBS = 1 << 20;

  public WorkerState {
    Checks.name("id", id);
    Checks.name("nodeId", nodeId);
    Checks.name("hostname", hostname);
    Checks.name("address", address);
    Checks.present("cpus", cpus);
    Checks.range("hostCpus", hostCpus, 0, 1 << 16);
    vacantGpus = Checks.ids("worker_vacant_gpus", vacantGpus, MAX_GPUS);
    usedGpus = Checks.ids("worker_used_gpus", usedGpus, MAX_GPUS);
    gpuDevices = Checks.list("gpuDevices", gpuDevices, MAX_GPUS);
    jobs = Checks.names("jobs", jobs, MAX_JOBS);
  }

  /** CPU counts: on a GPU cluster all three are 0. */
  public record Cpus(int total, int used, int vacant) {
    public Cpus {
      Checks.range("cpus.total", total, 0, 1 << 16);
      Checks.range("cpus.used", used, 0, 1 << 16);
      Checks.range("cpus.vacant", vacant, 0, 1 << 16);
    }
  }

  /** One GPU as {@code nvidia-smi} described it when the worker registered, for display. */
  public record GpuCard(int index, String uuid, String name, long memoryTotalMb, long memoryUsedMb, int utilization) {
    public GpuCard {
      Checks.range("gpuDevices.index", index, 0, Checks.MAX_ID);
      Checks.text("gpuDevices.uuid", uuid, Checks.MAX_STRING);
      Checks.text("gpuDevices.name", name, Checks.MAX_STRING);
    }
  }
}
