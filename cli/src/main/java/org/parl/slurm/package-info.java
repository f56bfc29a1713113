/**
 * Running parl inside a Slurm allocation: what Slurm tells a process about its allocation and step
 * ({@link org.parl.slurm.SlurmEnvironment}), the allocation's nodes and their addresses
 * ({@link org.parl.slurm.SlurmNodes}), the GPUs Slurm bound to a step checked against the node's
 * inventory ({@link org.parl.slurm.SlurmGpus}), the allocation's private token
 * ({@link org.parl.slurm.AllocationToken}) and the {@code srun} step of workers
 * ({@link org.parl.slurm.WorkerStep}).
 */
package org.parl.slurm;
