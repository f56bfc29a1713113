package org.parl.internal.wire.gateway;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.parl.internal.resources.GpuAmount;
import org.parl.internal.wire.Checks;

/**
 * A worker as the JobCenter sees it: who it is, what it lends, and PARL's vacant/used GPU lists.
 * The JobCenter publishes it in the cluster map {@code parl.workers} (read by monitors) and sends
 * it in snapshots and status answers.
 *
 * <p>Every GPU it lends is in exactly one of {@code worker_vacant_gpus}, {@code worker_used_gpus}
 * (held whole, or by any share or memory budget) and {@code worker_out_of_service_gpus} (held by no job,
 * and drained or quarantined).
 *
 * @param hostCpus the cores the worker's host gives its JVM ({@code availableProcessors}), whatever it lends
 * @param gpuShares each GPU's shares and budgets in use and its service state, by index
 * @param drained whether an operator drained the whole worker (nothing new is placed on it)
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
    @JsonProperty("worker_out_of_service_gpus") List<Integer> outOfServiceGpus,
    List<GpuShare> gpuShares,
    boolean drained,
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
    outOfServiceGpus = Checks.ids("worker_out_of_service_gpus", outOfServiceGpus == null ? List.of() : outOfServiceGpus, MAX_GPUS);
    gpuShares = Checks.list("gpuShares", gpuShares, MAX_GPUS);
    gpuDevices = Checks.list("gpuDevices", gpuDevices, MAX_GPUS);
    jobs = Checks.names("jobs", jobs, MAX_JOBS);
  }

  /** A worker with no GPU shared, drained or quarantined: PARL's two lists say it all. */
  public WorkerState(String id, String nodeId, String hostname, String address, Cpus cpus, int hostCpus,
      List<Integer> vacantGpus, List<Integer> usedGpus, List<GpuCard> gpuDevices, List<String> jobs) {
    this(id, nodeId, hostname, address, cpus, hostCpus, vacantGpus, usedGpus, List.of(), List.of(), false, gpuDevices, jobs);
  }

  /** CPU counts: on a GPU cluster all three are 0. */
  public record Cpus(int total, int used, int vacant) {
    public Cpus {
      Checks.range("cpus.total", total, 0, 1 << 16);
      Checks.range("cpus.used", used, 0, 1 << 16);
      Checks.range("cpus.vacant", vacant, 0, 1 << 16);
    }
  }

  /**
   * One GPU's load: the units of it held ({@link GpuAmount#UNITS_PER_GPU} when a job holds it whole), the GPU
   * memory budgets placed on it, and whether it is out of service.
   *
   * @param fault why it is quarantined, or null
   */
  public record GpuShare(int index, int shareUsed, long memoryBudgetMb, long memoryMb, boolean drained,
      boolean quarantined, String fault) {
    public GpuShare {
      Checks.range("gpuShares.index", index, 0, Checks.MAX_ID);
      Checks.range("gpuShares.shareUsed", shareUsed, 0, GpuAmount.UNITS_PER_GPU);
      Checks.range("gpuShares.memoryBudgetMb", memoryBudgetMb, 0, 1L << 40);
      Checks.range("gpuShares.memoryMb", memoryMb, 0, 1L << 40);
      fault = Checks.text("gpuShares.fault", fault, Checks.MAX_TEXT);
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
