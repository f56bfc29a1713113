package org.parl.worker.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What a worker lends, from the query's GPUs and {@code nvidia-smi -L}: each GPU not in MIG mode,
 * and each MIG instance of a GPU in MIG mode, whose parent is then not lent itself.
 *
 * <p>The index rule for MIG instances ({@link #migIndex}): {@code 100 * (parent index + 1) + the
 * instance's device number under its GPU} (GPU 0's instances are 100, 101, ..., GPU 1's 200, ...).
 * It depends only on the parent's index and the instance's number, not on other GPUs or on the
 * order of the listing, so it is the same at every poll while the MIG layout stays; a new layout
 * puts other UUIDs at those indices, which {@link InventoryChange} reports.
 */
final class GpuUnits {

  /** The first MIG index; physical GPUs must have smaller indices. */
  static final int MIG_BASE = 100;
  private static final Pattern PROFILE_GB = Pattern.compile("(\\d+)gb", Pattern.CASE_INSENSITIVE);

  private GpuUnits() {}

  static int migIndex(int parentIndex, int device) {
    return MIG_BASE * (parentIndex + 1) + device;
  }

  /**
   * The units to lend, in the order of the query, a MIG parent replaced by its instances.
   *
   * @throws IllegalStateException when the rule cannot number them (a GPU index of 100 or more
   *     beside MIG instances, or more than 100 instances on one GPU)
   */
  static List<GpuDevice> of(List<GpuDevice> physical, List<NvidiaSmiList.Listed> listing) {
    Map<Integer, NvidiaSmiList.Listed> byIndex = listing.stream()
        .collect(Collectors.toMap(NvidiaSmiList.Listed::index, Function.identity(), (a, b) -> a));
    boolean anyMig = listing.stream().anyMatch(l -> !l.migs().isEmpty());
    List<GpuDevice> units = new ArrayList<>();
    for (GpuDevice gpu : physical) {
      if (anyMig && gpu.index() >= MIG_BASE) {
        throw new IllegalStateException("GPU " + gpu.index() + " has an index of " + MIG_BASE
            + " or more, which MIG instances are numbered from");
      }
      NvidiaSmiList.Listed listed = byIndex.get(gpu.index());
      if (listed == null || listed.migs().isEmpty()) {
        units.add(gpu);
        continue;
      }
      for (NvidiaSmiList.MigInstance m : listed.migs()) {
        if (m.device() >= MIG_BASE) {
          throw new IllegalStateException("GPU " + gpu.index() + " lists MIG device " + m.device());
        }
        units.add(new GpuDevice(migIndex(gpu.index(), m.device()), m.uuid(), m.profile(), profileMb(m.profile()),
            0, 0, gpu.health(), Optional.of(new GpuDevice.Mig(gpu.index(), gpu.uuid(), m.device()))));
      }
    }
    return List.copyOf(units);
  }

  /**
   * A MIG profile's memory, from its name ({@code 1g.10gb} is 10 GiB; {@code 1c.3g.20gb+me} 20 GiB):
   * nvidia-smi's query does not cover MIG instances. It is the profile's nominal size, a little
   * more than the instance's usable memory; 0 when the name gives none.
   */
  static long profileMb(String profile) {
    Matcher m = PROFILE_GB.matcher(profile.toLowerCase(Locale.ROOT));
    return m.find() ? Long.parseLong(m.group(1)) * 1024 : 0;
  }
}
