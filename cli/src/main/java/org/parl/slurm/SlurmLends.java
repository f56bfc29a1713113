package org.parl.slurm;

import org.parl.control.ClusterType;
import org.parl.node.LocalWorker;
import org.parl.node.NodeFailure;
import org.parl.worker.WorkerSettings;
import org.parl.worker.gpu.GpuInventory;

/**
 * What a worker started by {@code parl worker --slurm} lends: on a CPU cluster the CPUs the allocation
 * has on its node ({@code SLURM_CPUS_ON_NODE}), on a GPU cluster the GPUs Slurm bound to its step
 * ({@link SlurmGpus}); never the whole node.
 */
public final class SlurmLends {

  private SlurmLends() {}

  /**
   * @throws NodeFailure when Slurm gave this node nothing that the cluster's type could use
   */
  public static WorkerSettings resolve(ClusterType type, SlurmEnvironment env, GpuInventory inventory, String host) {
    if (type == ClusterType.CPU) {
      if (env.cpusOnNode() == null || env.cpusOnNode() < 1) {
        throw new NodeFailure("SLURM_CPUS_ON_NODE is not set on node " + env.nodeName() + ", so the CPUs Slurm gave "
            + "this node are not known: start the worker with srun inside the allocation");
      }
      return LocalWorker.resolve(type, env.cpusOnNode(), null, inventory, host);
    }
    if (type == ClusterType.MIXED) {
      if (env.cpusOnNode() == null || env.cpusOnNode() < 1) {
        throw new NodeFailure("SLURM_CPUS_ON_NODE is not set on node " + env.nodeName() + ", so the CPUs Slurm gave "
            + "this node are not known: start the worker with srun inside the allocation");
      }
      return LocalWorker.resolve(type, env.cpusOnNode(), SlurmGpus.lent(env, inventory.read(), inventory.binary()),
          inventory, host);
    }
    return LocalWorker.resolve(type, null, SlurmGpus.lent(env, inventory.read(), inventory.binary()), inventory, host);
  }
}
