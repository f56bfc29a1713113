/**
 * The web monitor (docs/contract.md §6): pages, the JSON API, Prometheus {@code /metrics} and live
 * updates by Server-Sent Events ({@link org.parl.monitor.MonitorVerticle},
 * {@link org.parl.monitor.MonitorRoutes}), behind a door that wants the cluster token or a session
 * from a one-time login code ({@link org.parl.monitor.MonitorAuth}); the cluster read from its
 * signed maps without blocking ({@link org.parl.monitor.ClusterReader}) and turned into the API's
 * view ({@link org.parl.monitor.ClusterView}); jobs and their logs asked of their workers
 * ({@link org.parl.monitor.JobsService}); and the certificate it presents.
 */
package org.parl.monitor;
