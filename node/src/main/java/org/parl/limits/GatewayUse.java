package org.parl.limits;

import io.vertx.core.json.JsonObject;

/**
 * The master's gateway connections against their caps (docs/contract.md §8), as the gateway publishes them for
 * {@code /metrics}, with the master's caps in effect (its limits file and flags).
 *
 * @param open connections open now
 * @param mostFromOneAddress the most connections open now from one peer address
 * @param authenticating connections open now that have not yet authenticated
 * @param refused connections refused by a cap since the gateway started
 * @param limits the caps the master runs with
 */
public record GatewayUse(int open, int mostFromOneAddress, int authenticating, long refused, LimitSettings limits) {

  /** The record in the cluster map, {@code {"open":..,"mostFromOneAddress":..,..,"limits":{..},"updatedAt":..}}. */
  public JsonObject toJson() {
    return new JsonObject()
        .put("open", open)
        .put("mostFromOneAddress", mostFromOneAddress)
        .put("authenticating", authenticating)
        .put("refused", refused)
        .put("limits", new JsonObject()
            .put("maxConnections", limits.maxConnections())
            .put("maxConnectionsPerAddress", limits.maxConnectionsPerAddress())
            .put("maxUnauthenticated", limits.maxUnauthenticated())
            .put("maxWaitingPerClient", limits.maxWaitingPerClient()))
        .put("updatedAt", System.currentTimeMillis());
  }
}
