/**
 * Standby masters (docs/contract.md §10): each node's view of the cluster's masters, from their
 * signed records joined with Hazelcast's membership ({@link org.parl.ha.MasterDirectory},
 * {@link org.parl.ha.MasterRecord}), the election that names the active master
 * ({@link org.parl.ha.Masters}), and requests to the active JobCenter that wait out a takeover
 * instead of failing during it ({@link org.parl.ha.JobCenterCalls}).
 */
package org.parl.ha;
