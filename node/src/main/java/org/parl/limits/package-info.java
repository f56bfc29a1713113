/**
 * The caps that keep every node bounded under abuse (docs/contract.md §8): the settings a lab may
 * change ({@link org.parl.limits.LimitSettings}), backpressure on an outbound stream whose peer
 * does not read ({@link org.parl.limits.WriteBound}), and the gateway's connections against their
 * caps as {@code /metrics} shows them ({@link org.parl.limits.GatewayUse}).
 */
package org.parl.limits;
