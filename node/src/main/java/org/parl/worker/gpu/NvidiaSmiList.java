package org.parl.worker.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses {@code nvidia-smi -L}: one line per GPU, and under a GPU in MIG mode one line per MIG
 * instance. Other lines (warnings, a lost GPU's {@code Unable to determine the device handle ...})
 * are skipped: the query of {@link NvidiaSmiCsv} is what says which GPUs there are.
 *
 * <pre>
 * GPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-5d5ba0d6-d33d-2b2c-524d-9e3d8d2b8a77)
 *   MIG 1g.5gb      Device  0: (UUID: MIG-c6d4f1ef-42e4-5de3-91c7-45d71585f0a2)
 *   MIG 1g.5gb      Device  1: (UUID: MIG-GPU-5d5ba0d6-d33d-2b2c-524d-9e3d8d2b8a77/7/0)
 * </pre>
 *
 * (the second form is the MIG UUID of drivers before R470).
 */
final class NvidiaSmiList {

  private static final Pattern GPU = Pattern.compile("^GPU (\\d+): (.*) \\(UUID: ([^()\\s]+)\\)\\s*$");
  private static final Pattern MIG = Pattern.compile("^\\s+MIG (\\S+)\\s+Device\\s+(\\d+): \\(UUID: ([^()\\s]+)\\)\\s*$");

  /** One GPU of the listing, with its MIG instances (none when it is not in MIG mode). */
  record Listed(int index, String name, String uuid, List<MigInstance> migs) {}

  /** One MIG instance: its profile ({@code 1g.10gb}), its number under its GPU, its UUID. */
  record MigInstance(String profile, int device, String uuid) {}

  private NvidiaSmiList() {}

  static List<Listed> parse(String output) {
    List<Listed> gpus = new ArrayList<>();
    List<MigInstance> current = null;
    for (String line : output.split("\\R")) {
      Matcher g = GPU.matcher(line);
      Matcher m = MIG.matcher(line);
      if (g.matches()) {
        current = new ArrayList<>();
        gpus.add(new Listed(Integer.parseInt(g.group(1)), g.group(2).strip(), g.group(3), current));
      } else if (m.matches() && current != null) {
        current.add(new MigInstance(m.group(1), Integer.parseInt(m.group(2)), m.group(3)));
      }
    }
    return gpus.stream().map(l -> new Listed(l.index(), l.name(), l.uuid(), List.copyOf(l.migs()))).toList();
  }
}
