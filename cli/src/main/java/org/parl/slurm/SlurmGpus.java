package org.parl.slurm;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.parl.node.NodeFailure;
import org.parl.worker.gpu.GpuDevice;
import org.parl.worker.gpu.GpuInventory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GPUs a worker in a Slurm step lends: exactly those Slurm bound to the step on this node,
 * translated to the indices of this node's {@code nvidia-smi} inventory and checked against it, never
 * the whole node.
 */
public final class SlurmGpus {

  private static final Logger log = LoggerFactory.getLogger(SlurmGpus.class);

  private SlurmGpus() {}

  /**
   * Slurm's binding as inventory indices. A UUID ({@code GPU-...}, {@code MIG-...}) is looked up
   * by UUID; an index must be one the inventory lists. Where Slurm's device cgroup shows the step
   * only its own GPUs (so the inventory lists exactly as many GPUs as were bound, renumbered from 0),
   * those are the step's.
   *
   * @param reading this node's inventory
   * @param binary the {@code nvidia-smi} used, for messages
   * @throws NodeFailure when Slurm bound no GPU, the inventory cannot be read, or a bound GPU is not in it
   */
  public static List<Integer> lent(SlurmEnvironment env, GpuInventory.Reading reading, String binary) {
    List<String> bound = env.boundGpus();
    if (bound.isEmpty()) {
      throw new NodeFailure("Slurm bound no GPU to this step on node " + env.nodeName() + " (SLURM_STEP_GPUS and "
          + "CUDA_VISIBLE_DEVICES are not set), and this is a GPU cluster: ask for GPUs in the allocation, such as "
          + "'sbatch --gres=gpu:2' or '--gpus-per-node=2'");
    }
    Optional<String> problem = reading.problem();
    if (problem.isPresent()) {
      throw new NodeFailure("cannot check the GPUs Slurm bound on node " + env.nodeName() + " (" + String.join(",", bound)
          + ") against this node's inventory: " + problem.get());
    }
    List<Integer> ids = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (String gpu : bound) {
      Optional<Integer> id = find(gpu, reading.devices());
      if (id.isPresent() && !ids.contains(id.get())) {
        ids.add(id.get());
      } else if (id.isEmpty()) {
        missing.add(gpu);
      }
    }
    if (missing.isEmpty()) {
      return List.copyOf(ids);
    }
    boolean allIndices = bound.stream().allMatch(SlurmGpus::isIndex);
    if (allIndices && reading.devices().size() == bound.size()) {
      log.info("Slurm bound GPU(s) {} on node {} and {} lists {} GPU(s) renumbered from 0 (a device cgroup shows the "
          + "step only its own): lending those", String.join(",", bound), env.nodeName(), binary, bound.size());
      return reading.ids();
    }
    throw new NodeFailure("Slurm bound GPU(s) " + String.join(",", bound) + " on node " + env.nodeName() + " ("
        + env.boundGpusSource() + "), but " + binary + " lists " + describe(reading.devices()) + ": GPU(s) "
        + String.join(",", missing) + " are not among them");
  }

  private static Optional<Integer> find(String gpu, List<GpuDevice> devices) {
    if (isIndex(gpu)) {
      int index = Integer.parseInt(gpu);
      return devices.stream().map(GpuDevice::index).filter(i -> i == index).findFirst();
    }
    return devices.stream().filter(d -> gpu.equals(d.uuid())).map(GpuDevice::index).findFirst();
  }

  private static boolean isIndex(String gpu) {
    return !gpu.isEmpty() && gpu.length() < 6 && gpu.chars().allMatch(Character::isDigit);
  }

  private static String describe(List<GpuDevice> devices) {
    if (devices.isEmpty()) {
      return "no GPU";
    }
    return "GPU(s) " + String.join(", ", devices.stream().map(d -> d.index() + " (" + d.uuid() + ")").toList());
  }
}
