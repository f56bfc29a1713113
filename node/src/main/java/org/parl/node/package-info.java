/**
 * Starting and finding the nodes of a host: a master in this process with its gateway, local
 * worker, monitor and (when active) JobCenter ({@link org.parl.node.MasterNode}), the JVM options
 * of node processes ({@link org.parl.node.NodeJvm}), the per-user state under {@code $PARL_HOME}
 * ({@link org.parl.node.ParlHome}) and the records that let {@code bin/parl status} and
 * {@code bin/parl stop} find what runs on the host ({@link org.parl.node.ClusterFiles},
 * {@link org.parl.node.ProcessRecords}), and the blocking first hello of command-line processes to
 * a gateway ({@link org.parl.node.BlockingGateway}).
 */
package org.parl.node;
