package org.parl.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.parl.node.NodeFailure;
import org.parl.worker.gpu.GpuDevice;
import org.parl.worker.gpu.GpuInventory;

class SlurmGpusTest {

  private static GpuInventory.Reading gpus(int n) {
    List<GpuDevice> devices = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      devices.add(new GpuDevice(i, "GPU-" + i, "Fake", 81559, 0, 0));
    }
    return new GpuInventory.Reading(devices, Optional.empty(), false);
  }

  private static SlurmEnvironment step(String... pairs) {
    Map<String, String> env = new HashMap<>(Map.of("SLURM_JOB_ID", "7", "SLURM_JOB_NODELIST", "n[1-2]",
        "SLURMD_NODENAME", "n2", "SLURM_STEP_ID", "0", "SLURM_CPUS_ON_NODE", "3"));
    for (int i = 0; i < pairs.length; i += 2) {
      env.put(pairs[i], pairs[i + 1]);
    }
    return SlurmEnvironment.of(env);
  }

  @Test
  void aStepLendsTheGpusOfItsStepNotTheJobsOfTheBatchNode() {
    // inside a step, SLURM_JOB_GPUS is the batch node's (inherited): the step's own binding wins
    SlurmEnvironment env = step("SLURM_STEP_GPUS", "1,2", "SLURM_JOB_GPUS", "0,1", "CUDA_VISIBLE_DEVICES", "1,2");
    assertEquals(List.of(1, 2), SlurmGpus.lent(env, gpus(4), "nvidia-smi"));
    assertEquals(3, env.cpusOnNode());
  }

  @Test
  void theBatchScriptReadsTheJobsGpus() {
    Map<String, String> env = Map.of("SLURM_JOB_ID", "7", "SLURM_JOB_NODELIST", "n1", "SLURMD_NODENAME", "n1",
        "SLURM_JOB_GPUS", "0,3");
    assertEquals(List.of("0", "3"), SlurmEnvironment.of(env).boundGpus());
  }

  @Test
  void uuidsAreTranslatedToTheInventorysIndices() {
    assertEquals(List.of(3, 1), SlurmGpus.lent(step("CUDA_VISIBLE_DEVICES", "GPU-3,GPU-1"), gpus(4), "nvidia-smi"));
  }

  @Test
  void aDeviceCgroupThatRenumbersShowsOnlyTheStepsGpus() {
    // Slurm says 2,3; nvidia-smi in the step's device cgroup sees two GPUs, 0 and 1: those are the step's
    assertEquals(List.of(0, 1), SlurmGpus.lent(step("SLURM_STEP_GPUS", "2,3"), gpus(2), "nvidia-smi"));
  }

  @Test
  void aBoundGpuMissingFromTheInventoryIsAClearError() {
    NodeFailure e = assertThrows(NodeFailure.class,
        () -> SlurmGpus.lent(step("SLURM_STEP_GPUS", "1,5"), gpus(4), "/opt/nvidia-smi"));
    assertEquals("Slurm bound GPU(s) 1,5 on node n2 (SLURM_STEP_GPUS), but /opt/nvidia-smi lists GPU(s) 0 (GPU-0), "
        + "1 (GPU-1), 2 (GPU-2), 3 (GPU-3): GPU(s) 5 are not among them", e.getMessage());
  }

  @Test
  void noGpuBoundOnAGpuClusterSaysHowToAskForThem() {
    NodeFailure e = assertThrows(NodeFailure.class, () -> SlurmGpus.lent(step(), gpus(4), "nvidia-smi"));
    assertEquals("Slurm bound no GPU to this step on node n2 (SLURM_STEP_GPUS and CUDA_VISIBLE_DEVICES are not set), "
        + "and this is a GPU cluster: ask for GPUs in the allocation, such as 'sbatch --gres=gpu:2' or "
        + "'--gpus-per-node=2'", e.getMessage());
  }

  @Test
  void anUnreadableInventoryIsNotGuessedAround() {
    GpuInventory.Reading broken = new GpuInventory.Reading(List.of(), Optional.of("nvidia-smi cannot be run"), false);
    NodeFailure e = assertThrows(NodeFailure.class, () -> SlurmGpus.lent(step("SLURM_STEP_GPUS", "0"), broken, "x"));
    assertEquals("cannot check the GPUs Slurm bound on node n2 (0) against this node's inventory: nvidia-smi cannot be run",
        e.getMessage());
  }

  @Test
  void outsideAnAllocationTheMessageSaysWhereToRunIt() {
    NodeFailure e = assertThrows(NodeFailure.class, () -> SlurmEnvironment.of(Map.of()).requireAllocation("parl slurm"));
    assertEquals("'parl slurm' runs inside a Slurm allocation, and SLURM_JOB_ID is not set here: run it from an sbatch "
        + "script (or under salloc through srun)", e.getMessage());
    NodeFailure count = assertThrows(NodeFailure.class, () -> SlurmEnvironment.of(Map.of("SLURM_CPUS_ON_NODE", "two")));
    assertEquals("SLURM_CPUS_ON_NODE is 'two', not a count of CPUs", count.getMessage());
  }

  @Test
  void slurmsOutputsAreRead() {
    assertEquals(Map.of("n1", "10.77.0.3", "n2", "node2.lab"), SlurmNodes.nodeAddresses(
        "NodeName=n1 Arch=x86_64 CoresPerSocket=1 NodeAddr=10.77.0.3 NodeHostName=n1 Version=22.05.8\n"
            + "NodeName=n2 Arch=x86_64 NodeAddr=node2.lab NodeHostName=n2\n"));
    assertEquals(Optional.of("12.3"), WorkerStep.stepOf("12.batch batch\n12.3 parl-workers\n12.4 train\n", "parl-workers"));
    assertEquals(Optional.empty(), WorkerStep.stepOf("12.batch batch\n", "parl-workers"));
  }
}
