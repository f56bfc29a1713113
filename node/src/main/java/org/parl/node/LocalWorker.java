package org.parl.node;

import java.util.List;
import java.util.UUID;
import org.parl.control.ClusterType;
import org.parl.internal.net.Hostnames;
import org.parl.worker.WorkerSettings;
import org.parl.worker.gpu.GpuDevice;
import org.parl.worker.gpu.GpuInventory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Decides what a worker on this host lends, from its options, the cluster type and nvidia-smi. */
public final class LocalWorker {

  private static final Logger log = LoggerFactory.getLogger(LocalWorker.class);
  /** Warm CPU job processes a worker keeps at most (each costs a JVM's memory while idle). */
  public static final int WARM_CPU_JOBS = 4;

  private LocalWorker() {}

  /**
   * @param cpus {@code --cpus}, or null for every core
   * @param gpus {@code --gpus}, or null for every detected GPU
   * @throws NodeFailure when the options do not fit the cluster or the host
   */
  public static WorkerSettings resolve(ClusterType type, Integer cpus, List<Integer> gpus, GpuInventory inventory, String host) {
    String workerId = "w-" + UUID.randomUUID().toString().substring(0, 8);
    int cores = Runtime.getRuntime().availableProcessors();
    if (type == ClusterType.CPU) {
      if (gpus != null) {
        throw new NodeFailure("this is a CPU cluster, so a worker cannot lend GPUs (--gpus): start the master with "
            + "--gpu-cluster to use GPUs, or leave --gpus out");
      }
      int lent = cpus != null ? cpus : cores;
      return settings(workerId, host, lent, List.of(), List.of(), null, Math.min(lent, WARM_CPU_JOBS));
    }
    if (type == ClusterType.MIXED) {
      return mixed(workerId, host, cpus != null ? cpus : cores, gpus, inventory);
    }
    if (cpus != null) {
      throw new NodeFailure("this is a GPU cluster, so a worker lends GPUs (--gpus), not CPUs (--cpus): "
          + "leave --cpus out, or join a CPU cluster");
    }
    GpuInventory.Reading reading = inventory.read();
    List<Integer> chosen;
    if (gpus == null) {
      if (reading.problem().isPresent()) {
        throw new NodeFailure("this is a GPU cluster but this host's GPUs cannot be listed: "
            + reading.problem().get() + "; or name the GPUs to lend with --gpus 0,1,...");
      }
      if (reading.devices().isEmpty()) {
        throw new NodeFailure("this is a GPU cluster but " + inventory.binary() + " lists no GPUs on this host");
      }
      chosen = reading.ids();
    } else {
      chosen = checked(gpus, reading, inventory);
    }
    return settings(workerId, host, cores, chosen, devices(reading, chosen), inventory.binary(), 1);
  }

  /**
   * A worker of a mixed cluster lends its CPUs and, where it has them, GPUs: those of {@code --gpus},
   * else every GPU nvidia-smi lists (none when it lists none or cannot run).
   */
  private static WorkerSettings mixed(String workerId, String host, int cpus, List<Integer> gpus, GpuInventory inventory) {
    if (cpus < 1) {
      throw new NodeFailure("a worker of a mixed cluster lends at least 1 CPU (--cpus " + cpus + ")");
    }
    GpuInventory.Reading reading = inventory.read();
    List<Integer> chosen;
    if (gpus == null) {
      reading.problem().ifPresent(p -> log.info("lending no GPUs: {}", p));
      chosen = reading.problem().isPresent() ? List.of() : reading.ids();
    } else {
      chosen = checked(gpus, reading, inventory);
    }
    return settings(workerId, host, cpus, chosen, devices(reading, chosen), chosen.isEmpty() ? null : inventory.binary(),
        Math.min(cpus, WARM_CPU_JOBS));
  }

  private static List<Integer> checked(List<Integer> gpus, GpuInventory.Reading reading, GpuInventory inventory) {
    if (reading.problem().isPresent()) {
      log.warn("cannot check --gpus {} against this host: {}", gpus, reading.problem().get());
      return gpus;
    }
    for (int id : gpus) {
      if (!reading.ids().contains(id)) {
        throw new NodeFailure("GPU " + id + " does not exist on this host: " + inventory.binary()
            + " lists GPU(s) " + join(reading.ids()));
      }
    }
    return gpus;
  }

  private static List<GpuDevice> devices(GpuInventory.Reading reading, List<Integer> chosen) {
    return reading.devices().stream().filter(d -> chosen.contains(d.index())).toList();
  }

  private static WorkerSettings settings(String id, String host, int cpus, List<Integer> gpus, List<GpuDevice> devices,
      String smi, int warm) {
    return new WorkerSettings(id, Hostnames.local(), host, cpus, gpus, devices,
        ParlHome.workers().resolve(id), ParlHome.codeCache(), smi, warm);
  }

  private static String join(List<Integer> ids) {
    return ids.isEmpty() ? "none" : String.join(",", ids.stream().map(String::valueOf).toList());
  }
}
