/**
 * The worker: its presence in the cluster and what it lends ({@link org.parl.worker.WorkerVerticle},
 * {@link org.parl.worker.WorkerSettings}); the job processes it starts, binds to jobs, watches and
 * ends ({@link org.parl.worker.JobSupervisor}, {@link org.parl.worker.JobLauncher},
 * {@link org.parl.worker.JobTable}), speaking with them on a loopback control link
 * ({@link org.parl.worker.ControlServer}, {@link org.parl.worker.Heartbeats}) and keeping each job's
 * processes together ({@link org.parl.worker.Containment}) within its memory and GPU memory limits
 * ({@link org.parl.worker.MemoryWatch}, {@link org.parl.worker.GpuMemoryWatch}); its GPUs, their
 * health and identity in {@code org.parl.worker.gpu}, which does not know this package; job logs bounded
 * on every write ({@link org.parl.worker.CappedLog}); and fencing when its master is gone
 * ({@link org.parl.worker.Fence}).
 */
package org.parl.worker;
