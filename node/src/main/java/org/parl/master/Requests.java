package org.parl.master;

import org.parl.control.ClusterType;
import org.parl.scheduler.ResourceRequest;
import org.parl.wire.ErrorKind;
import org.parl.wire.gateway.ActorResources;

/**
 * Turns what a client asked for into what the pool places, by the rules of the cluster's kind: a CPU
 * cluster grants CPUs only, a GPU cluster GPUs only (PARL #1041, unchanged), a mixed cluster both,
 * a GPU actor there taking its own CPUs beside its GPUs.
 */
final class Requests {

  private Requests() {}

  /** @throws Rejected with the one sentence that says what is wrong with the request on this cluster */
  static ResourceRequest validate(ClusterType type, int maxGpusPerActor, ActorResources r) {
    boolean gpu = r.gpus() > 0 || r.gpuShare() > 0 || r.gpuMemoryMb() > 0 || r.gpuModel() != null;
    if (type == ClusterType.CPU) {
      if (gpu) {
        throw new Rejected(ErrorKind.MISMATCH, "this is a CPU cluster and the actor asks for " + gpuWords(r)
            + ": ask for CPUs instead (@RemoteClass(cpus = N)), or connect to a cluster started with --gpu-cluster or --mixed");
      }
      if (r.gpus() < 0 || r.cpus() < 1) {
        throw new Rejected(ErrorKind.INVALID, "an actor must ask for at least 1 CPU (it asked for "
            + r.cpus() + " CPU(s) and " + r.gpus() + " GPU(s))");
      }
      return ResourceRequest.ofCpus(r.cpus());
    }
    if (r.gpuModel() != null && r.gpus() <= 0 && r.gpuShare() <= 0 && r.gpuMemoryMb() <= 0) {
      throw new Rejected(ErrorKind.INVALID, "a GPU model says which GPU an actor wants, not how much of one: ask for GPUs "
          + "with it, e.g. .gpus(1).gpuModel(\"" + r.gpuModel() + "\") or @RemoteClass(gpus = 1, gpuModel = \""
          + r.gpuModel() + "\")");
    }
    if (type == ClusterType.GPU && !gpu && r.gpus() == 0) {
      throw new Rejected(ErrorKind.MISMATCH, "this is a GPU cluster and the actor asks for no GPUs: ask for some with "
          + "@RemoteClass(gpus = N) or .gpus(N), or connect to a CPU or mixed cluster");
    }
    if (r.gpus() < 0) {
      throw new Rejected(ErrorKind.INVALID, "an actor must ask for at least 1 GPU, not " + r.gpus());
    }
    if (r.gpus() > maxGpusPerActor) {
      throw new Rejected(ErrorKind.INVALID, "an actor may ask for at most " + maxGpusPerActor
          + " GPUs and this one asks for " + r.gpus() + ": split the work across actors");
    }
    if (r.gpuShare() < 0 || r.gpuShare() >= ResourceRequest.UNITS_PER_GPU) {
      throw new Rejected(ErrorKind.INVALID, "a GPU share is between 1 and " + (ResourceRequest.UNITS_PER_GPU - 1)
          + " thousandths of one GPU, not " + r.gpuShare());
    }
    if (r.gpuShare() > 0 && r.gpus() > 0) {
      throw new Rejected(ErrorKind.INVALID, "an actor asks for whole GPUs or a share of one, not both ("
          + r.gpus() + " GPU(s) and " + ResourceRequest.shareText(r.gpuShare()) + ")");
    }
    if (r.gpuMemoryMb() < 0) {
      throw new Rejected(ErrorKind.INVALID, "a GPU memory budget must not be negative, not " + r.gpuMemoryMb() + " MiB");
    }
    if (type == ClusterType.GPU) {
      return new ResourceRequest(0, r.gpus(), r.gpuShare(), r.gpuMemoryMb(), r.gpuModel());
    }
    // mixed
    if (r.cpus() < (gpu ? 0 : 1)) {
      throw new Rejected(ErrorKind.INVALID, "an actor must ask for at least " + (gpu ? 0 : 1) + " CPU(s), not " + r.cpus());
    }
    if (!gpu) {
      return ResourceRequest.ofCpus(r.cpus());
    }
    return new ResourceRequest(r.cpus(), r.gpus(), r.gpuShare(), r.gpuMemoryMb(), r.gpuModel());
  }

  private static String gpuWords(ActorResources r) {
    if (r.gpus() > 0) {
      return r.gpus() + " GPU(s)";
    }
    if (r.gpuShare() > 0) {
      return ResourceRequest.shareText(r.gpuShare()) + " of a GPU";
    }
    return r.gpuMemoryMb() > 0 ? r.gpuMemoryMb() + " MiB of GPU memory" : "a GPU of model " + r.gpuModel();
  }
}
