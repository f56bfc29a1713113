package org.parl.slurm;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.parl.node.NodeFailure;

/**
 * What Slurm tells a process about its allocation, from the environment it sets for a batch script
 * and for every task of a step.
 *
 * @param jobId {@code SLURM_JOB_ID}, or null outside an allocation
 * @param nodeList {@code SLURM_JOB_NODELIST}, such as {@code n[1-2]}
 * @param nodeName {@code SLURMD_NODENAME}: the node this process runs on
 * @param cpusOnNode {@code SLURM_CPUS_ON_NODE}: the CPUs the allocation has on this node, or null
 * @param stepId {@code SLURM_STEP_ID}: set inside a step started by {@code srun}, not in a batch script
 * @param stepGpus {@code SLURM_STEP_GPUS}: the GPUs bound to this step on this node
 * @param jobGpus {@code SLURM_JOB_GPUS}: the GPUs of the allocation on the batch node (inside a step it
 *     is inherited from the batch script, so it may describe another node)
 * @param cudaVisibleDevices {@code CUDA_VISIBLE_DEVICES} as Slurm set it
 */
public record SlurmEnvironment(String jobId, String nodeList, String nodeName, Integer cpusOnNode, String stepId,
    String stepGpus, String jobGpus, String cudaVisibleDevices) {

  /** The environment of this process. */
  public static SlurmEnvironment current() {
    return of(System.getenv());
  }

  /**
   * Reads the variables from {@code env}.
   *
   * @throws NodeFailure when {@code SLURM_CPUS_ON_NODE} is set but is not a count
   */
  public static SlurmEnvironment of(Map<String, String> env) {
    String cpus = blankToNull(env.get("SLURM_CPUS_ON_NODE"));
    Integer cpusOnNode = null;
    if (cpus != null) {
      try {
        cpusOnNode = Integer.parseInt(cpus);
      } catch (NumberFormatException e) {
        throw new NodeFailure("SLURM_CPUS_ON_NODE is '" + cpus + "', not a count of CPUs");
      }
    }
    return new SlurmEnvironment(blankToNull(env.get("SLURM_JOB_ID")), blankToNull(env.get("SLURM_JOB_NODELIST")),
        blankToNull(env.get("SLURMD_NODENAME")), cpusOnNode, blankToNull(env.get("SLURM_STEP_ID")),
        blankToNull(env.get("SLURM_STEP_GPUS")), blankToNull(env.get("SLURM_JOB_GPUS")),
        blankToNull(env.get("CUDA_VISIBLE_DEVICES")));
  }

  /**
   * Checks that this process runs inside an allocation, on one of its nodes.
   *
   * @param command the parl command, for the message
   * @throws NodeFailure naming what is missing
   */
  public SlurmEnvironment requireAllocation(String command) {
    if (jobId == null) {
      throw new NodeFailure("'" + command + "' runs inside a Slurm allocation, and SLURM_JOB_ID is not set here: "
          + "run it from an sbatch script (or under salloc through srun)");
    }
    if (nodeList == null || nodeName == null) {
      throw new NodeFailure("'" + command + "' runs on a node of Slurm job " + jobId + ", but "
          + (nodeList == null ? "SLURM_JOB_NODELIST" : "SLURMD_NODENAME") + " is not set here: run it from the "
          + "job's batch script or a step (srun), not on the submit host");
    }
    return this;
  }

  /** Whether this process is a task of a step ({@code srun}) rather than the batch script. */
  public boolean inStep() {
    return stepId != null;
  }

  /**
   * The GPUs Slurm bound on this node, as Slurm lists them (indices, or UUIDs in
   * {@code CUDA_VISIBLE_DEVICES}): in a step, the step's; in a batch script, the job's on this node.
   * Empty when Slurm bound none.
   */
  public List<String> boundGpus() {
    String bound = inStep() ? stepGpus : jobGpus;
    return split(Optional.ofNullable(bound).orElse(cudaVisibleDevices));
  }

  /** Which variable {@link #boundGpus()} came from, for messages. */
  public String boundGpusSource() {
    String variable = inStep() ? "SLURM_STEP_GPUS" : "SLURM_JOB_GPUS";
    return (inStep() ? stepGpus : jobGpus) != null ? variable : "CUDA_VISIBLE_DEVICES (" + variable + " is not set)";
  }

  private static List<String> split(String list) {
    if (list == null) {
      return List.of();
    }
    return Arrays.stream(list.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }
}
