package org.parl.master;

import org.parl.control.ClusterType;
import org.parl.internal.resources.ResourceRequest;
import org.parl.internal.wire.ErrorKind;

/**
 * The cluster's kind applied to what a client asked for: a CPU cluster grants CPUs only, a GPU cluster
 * GPUs only (PARL #1041, unchanged), a mixed cluster both, a GPU actor there taking its own CPUs beside
 * its GPUs. The request itself is well-formed already ({@link ResourceRequest} checks itself where it is
 * built): only what depends on this cluster is decided here.
 */
final class Requests {

  private Requests() {}

  /**
   * What the pool places for {@code r} on this cluster: its CPUs and GPUs (the memory limit goes with
   * the job, not to the pool).
   *
   * @throws Rejected with the one sentence that says why the request does not suit this cluster
   */
  static ResourceRequest admit(ClusterType type, int maxGpusPerActor, ResourceRequest r) {
    ResourceRequest placed = r.withMaxMemoryMb(0);
    if (type == ClusterType.CPU) {
      if (r.wantsGpu()) {
        throw new Rejected(ErrorKind.MISMATCH, "this is a CPU cluster and the actor asks for " + r.gpuWords()
            + ": ask for CPUs instead (@RemoteClass(cpus = N)), or connect to a cluster started with --gpu-cluster or --mixed");
      }
      return placed;
    }
    if (type == ClusterType.GPU && !r.wantsGpu()) {
      throw new Rejected(ErrorKind.MISMATCH, "this is a GPU cluster and the actor asks for no GPUs: ask for some with "
          + "@RemoteClass(gpus = N) or .gpus(N), or connect to a CPU or mixed cluster");
    }
    if (r.gpus() > maxGpusPerActor) {
      throw new Rejected(ErrorKind.INVALID, "an actor may ask for at most " + maxGpusPerActor
          + " GPUs and this one asks for " + r.gpus() + ": split the work across actors");
    }
    // a GPU cluster's actors take no CPUs of their own; a mixed cluster's take what they ask
    return type == ClusterType.GPU ? placed.withCpus(0) : placed;
  }
}
