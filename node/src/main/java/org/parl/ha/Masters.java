package org.parl.ha;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.parl.internal.wire.gateway.MasterState;

/**
 * The masters of the cluster at one moment, and the election (docs/contract.md §10): the active master is the
 * oldest live cluster member with a valid master record. Every member sees the same member list in
 * the same order, so every member computes the same answer without a protocol of its own; a master
 * that joins later is younger, so it never displaces the active one.
 *
 * @param live the live masters, oldest first; the first one is the active master
 */
public record Masters(List<MasterRecord> live) {

  /** No master at all. */
  public static final Masters NONE = new Masters(List.of());

  public Masters {
    live = List.copyOf(live);
  }

  /**
   * Elects from the member list (oldest first, as Hazelcast orders it) and the verified records by
   * member id; records of members that are gone are ignored.
   */
  public static Masters elect(List<String> membersOldestFirst, Map<String, MasterRecord> records) {
    List<MasterRecord> live = new ArrayList<>();
    for (String member : membersOldestFirst) {
      MasterRecord r = records.get(member);
      if (r != null) {
        live.add(r);
      }
    }
    return new Masters(live);
  }

  /** The active master, if any master is live. */
  public Optional<MasterRecord> active() {
    return live.isEmpty() ? Optional.empty() : Optional.of(live.get(0));
  }

  public boolean isActive(String memberId) {
    return active().map(a -> a.memberId().equals(memberId)).orElse(false);
  }

  public Optional<MasterRecord> byMember(String memberId) {
    return live.stream().filter(r -> r.memberId().equals(memberId)).findFirst();
  }

  /** As {@code parl status} and the monitor show them. */
  public List<MasterState> states() {
    List<MasterState> states = new ArrayList<>();
    for (int i = 0; i < live.size(); i++) {
      MasterRecord r = live.get(i);
      states.add(new MasterState(r.memberId(), r.address(), r.monitorUrl(), i == 0));
    }
    return states;
  }
}
