/**
 * What every node of a cluster shares: the clustered Vert.x instance on Hazelcast that a master, a
 * worker or a monitor runs ({@link org.parl.cluster.ClusterNode}, configured by
 * {@link org.parl.cluster.HazelcastSettings}, joined under a name only token holders can compute,
 * {@link org.parl.cluster.ClusterName}), the event-bus addresses and cluster-map names
 * ({@link org.parl.cluster.Addresses}), how a cluster is reached and of which kind it is
 * ({@link org.parl.cluster.ClusterInfo}, {@link org.parl.control.ClusterType}), and the signed
 * records every node writes to the cluster maps ({@link org.parl.cluster.MapPublisher}), and a request
 * to one job at its address or its worker's ({@link org.parl.cluster.OneJob}). Clients and job processes
 * are not members. It builds on the control plane ({@code org.parl.control}), which does not know it:
 * the addresses a control message goes to are chosen here and above.
 */
package org.parl.cluster;
