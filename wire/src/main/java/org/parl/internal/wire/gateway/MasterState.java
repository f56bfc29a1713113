package org.parl.internal.wire.gateway;

import org.parl.internal.wire.Checks;

/**
 * One master of the cluster as {@code parl status} and the monitor show it (docs/contract.md §10): exactly one
 * is active (it runs the JobCenter), the others stand by to take over.
 *
 * @param memberId its Hazelcast member UUID
 * @param address its gateway, {@code host:port}
 * @param monitorUrl its web monitor
 * @param active true for the one active master
 */
public record MasterState(String memberId, String address, String monitorUrl, boolean active) {

  /** Most masters a status lists. */
  public static final int MAX_MASTERS = 64;

  public MasterState {
    Checks.name("memberId", memberId);
    Checks.name("address", address);
    monitorUrl = Checks.text("monitorUrl", monitorUrl == null ? "" : monitorUrl, Checks.MAX_STRING);
  }
}
