package org.parl.cli;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.parl.worker.GpuInventory;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code --nvidia-smi}: the binary that lists this host's GPUs. */
public final class GpuOptions {

  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(names = "--nvidia-smi", paramLabel = "PATH",
      description = "nvidia-smi binary to list GPUs with (default: $" + GpuInventory.ENV + " or nvidia-smi on the PATH).")
  String nvidiaSmi;

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
