package org.parl.master;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.parl.limits.GatewayUse;
import org.parl.limits.LimitSettings;

/**
 * Counts the gateway's connections (docs/contract.md §8): per peer address, in total, and those not yet
 * authenticated, against the caps of {@link LimitSettings}. Touched only on the gateway's context.
 */
final class ConnectionCaps {

  private final LimitSettings limits;
  private final Map<String, Integer> perAddress = new HashMap<>();
  private int total;
  private int unauthenticated;
  private long refused;

  ConnectionCaps(LimitSettings limits) {
    this.limits = limits;
  }

  /** Counts a new connection from {@code address}; or, past a cap, why it is refused (and counts nothing). */
  Optional<String> admit(String address) {
    int fromThere = perAddress.getOrDefault(address, 0);
    String why = null;
    if (fromThere >= limits.maxConnectionsPerAddress()) {
      why = "too many connections from " + address + ": " + fromThere + " are open and the cap is "
          + limits.maxConnectionsPerAddress() + " (gateway.maxConnectionsPerAddress in " + LimitSettings.FILE + ")";
    } else if (total >= limits.maxConnections()) {
      why = "too many connections: " + total + " are open and the cap is " + limits.maxConnections()
          + " (gateway.maxConnections in " + LimitSettings.FILE + ")";
    } else if (unauthenticated >= limits.maxUnauthenticated()) {
      why = "too many connections are authenticating: " + unauthenticated + " are and the cap is "
          + limits.maxUnauthenticated() + " (gateway.maxUnauthenticated in " + LimitSettings.FILE + ")";
    }
    if (why != null) {
      refused++;
      return Optional.of(why);
    }
    perAddress.merge(address, 1, Integer::sum);
    total++;
    unauthenticated++;
    return Optional.empty();
  }

  /** An admitted connection has authenticated. */
  void authenticated() {
    unauthenticated--;
  }

  /** An admitted connection closed. */
  void closed(String address, boolean wasAuthenticated) {
    perAddress.computeIfPresent(address, (a, n) -> n > 1 ? n - 1 : null);
    total--;
    if (!wasAuthenticated) {
      unauthenticated--;
    }
  }

  /** The counts now, for {@code /metrics}. */
  GatewayUse use() {
    int most = perAddress.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    return new GatewayUse(total, most, unauthenticated, refused, limits);
  }

  /** Connections refused since the gateway started. */
  long refused() {
    return refused;
  }
}
