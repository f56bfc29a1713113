package org.parl.scheduler;

import org.parl.internal.resources.GpuAmount;
import org.parl.internal.resources.ResourceRequest;

/** Small pieces of the sentences the pool writes, so that they read alike everywhere. */
final class Texts {

  private Texts() {}

  /** {@code count(1, "GPU")} is "1 GPU", {@code count(2, "GPU")} is "2 GPUs". */
  static String count(long n, String noun) {
    return n + " " + plural(n, noun);
  }

  static String plural(long n, String noun) {
    if (n == 1) {
      return noun;
    }
    int space = noun.indexOf(' ');
    return space < 0 ? noun + "s" : noun.substring(0, space) + "s" + noun.substring(space);
  }

  /** The kind of GPU a request needs: "GPU", or "GPU of model A100 with at least 8192 MiB". */
  static String gpuKind(ResourceRequest r) {
    StringBuilder s = new StringBuilder("GPU");
    if (r.gpuModel() != null) {
      s.append(" of model ").append(r.gpuModel());
    }
    if (r.gpuMemoryMb() > 0) {
      s.append(" with at least ").append(r.gpuMemoryMb()).append(" MiB");
    }
    return s.toString();
  }

  /** A share as users write it: 500 units is "0.5 of a GPU". */
  static String share(int units) {
    return GpuAmount.shareText(units) + " of a GPU";
  }
}
