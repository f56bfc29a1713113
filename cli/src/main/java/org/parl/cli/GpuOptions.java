package org.parl.cli;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.parl.worker.gpu.GpuInventory;
import org.parl.worker.gpu.GpuPolicy;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --nvidia-smi}: the binary that lists this host's GPUs; {@code --gpu-faults}: what happens to
 * the jobs on a GPU that turns faulty; {@code --cuda-visible-devices}: how jobs are told their GPUs.
 */
public final class GpuOptions {

  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(names = "--nvidia-smi", paramLabel = "PATH",
      description = "nvidia-smi binary to list GPUs with (default: $" + GpuInventory.ENV + " or nvidia-smi on the PATH).")
  String nvidiaSmi;

  @Option(names = "--gpu-faults", paramLabel = "stop|warn", defaultValue = "stop",
      description = "What happens to the actors on a GPU that turns faulty (ECC errors, pending retired pages or row "
          + "remaps, lost): 'stop' (default) stops their jobs, and their calls fail with GpuFaultException; 'warn' lets "
          + "them run and logs a warning. Either way the GPU is quarantined: nothing new is placed on it.")
  String gpuFaults;

  @Option(names = "--cuda-visible-devices", paramLabel = "index|uuid", defaultValue = "index",
      description = "How a job's CUDA_VISIBLE_DEVICES names its GPUs: 'index' (default, PARL's way; MIG instances by "
          + "UUID) or 'uuid' (GPU-... for every GPU).")
  String visibleDevices;

  /** The GPU policy the options give; a wrong value is a parameter error. */
  public GpuPolicy policy() {
    GpuPolicy.Faults faults;
    GpuPolicy.Visible visible;
    try {
      faults = GpuPolicy.Faults.parse(gpuFaults);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--gpu-faults is 'stop' or 'warn', not '" + gpuFaults + "'");
    }
    try {
      visible = GpuPolicy.Visible.parse(visibleDevices);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--cuda-visible-devices is 'index' or 'uuid', not '"
          + visibleDevices + "'");
    }
    return new GpuPolicy(faults, visible);
  }

  public GpuInventory inventory() {
    return GpuInventory.of(nvidiaSmi);
  }

  /** Checks the form of a {@code --gpus} list: non-negative, distinct. */
  static List<Integer> validIds(CommandSpec spec, List<Integer> ids) {
    if (ids == null) {
      return null;
    }
    Set<Integer> seen = new HashSet<>();
    for (Integer id : ids) {
      if (id < 0) {
        throw new ParameterException(spec.commandLine(), "--gpus lists " + id + "; GPU ids are 0 or more");
      }
      if (!seen.add(id)) {
        throw new ParameterException(spec.commandLine(), "--gpus lists GPU " + id + " twice");
      }
    }
    if (ids.isEmpty()) {
      throw new ParameterException(spec.commandLine(), "--gpus needs at least one GPU id, such as --gpus 0,1");
    }
    return List.copyOf(ids);
  }
}
