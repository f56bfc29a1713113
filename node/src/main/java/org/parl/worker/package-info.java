/**
 * The worker: its presence in the cluster and what it lends ({@link org.parl.worker.WorkerVerticle},
 * {@link org.parl.worker.WorkerSettings}); the job processes it starts, binds to jobs, watches and
 * ends ({@link org.parl.worker.JobSupervisor}, {@link org.parl.worker.JobLauncher},
 * {@link org.parl.worker.JobTable}), speaking with them on a loopback control link
 * ({@link org.parl.worker.ControlServer}, {@link org.parl.worker.Heartbeats}) and keeping each job's
 * processes together ({@link org.parl.worker.Containment}) within its memory and GPU memory limits;
 * its GPUs as {@code nvidia-smi} shows them, their health and identity
 * ({@link org.parl.worker.GpuInventory}, {@link org.parl.worker.GpuHealthWatch}); job logs bounded
 * on every write ({@link org.parl.worker.CappedLog}); and fencing when its master is gone
 * ({@link org.parl.worker.Fence}).
 */
package org.parl.worker;
