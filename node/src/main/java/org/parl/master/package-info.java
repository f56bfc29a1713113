/**
 * The master: its client gateway (TLS, the typed protocol of {@code org.parl.internal.wire.gateway}, a
 * door that authenticates each connection before anything is served, {@link org.parl.master.GatewayVerticle})
 * and, on the active master, the JobCenter that owns the cluster's CPU/GPU pool
 * ({@link org.parl.master.JobCenterVerticle} around the decisions of {@link org.parl.master.JobCenter}):
 * requests turned into what the pool places by the cluster's rules ({@link org.parl.master.Requests}),
 * jobs placed on workers ({@link org.parl.master.Placer}), quarantined GPUs, the rebuild of the pool
 * after a takeover ({@link org.parl.master.Rebuild}) and the sweep of jobs no client holds.
 */
package org.parl.master;
