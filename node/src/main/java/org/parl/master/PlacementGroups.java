package org.parl.master;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.parl.internal.resources.Allocation;
import org.parl.internal.resources.GroupRequest;

/**
 * The placement groups the JobCenter holds: per group its client and, per bundle, the allocation the pool
 * holds for it and the actor's job in it, if any. A bundle's allocation is in the pool under a job id of its
 * own while it is idle, and under its actor's job id while an actor runs in it (the actor's job takes the
 * allocation as it is); so every allocation of the pool is either a job or an idle bundle. Owned by the
 * {@link JobCenter}, on its thread.
 */
final class PlacementGroups {

  /** One bundle: what the pool holds for it, and the job of the actor in it (null while idle). */
  static final class Slot {
    final Group group;
    final int index;
    Allocation held;
    String jobId;

    Slot(Group group, int index, Allocation held) {
      this.group = group;
      this.index = index;
      this.held = held;
    }

    boolean idle() {
      return jobId == null;
    }
  }

  /** A group held for a client. */
  static final class Group {
    final String id;
    final String clientId;
    final GroupRequest request;
    final List<Slot> slots = new ArrayList<>();

    Group(String id, String clientId, GroupRequest request) {
      this.id = id;
      this.clientId = clientId;
      this.request = request;
    }
  }

  /** Most ended groups whose end is remembered, so that a late create into one is told why it is gone. */
  private static final int ENDED_REMEMBERED = 1024;

  private final Map<String, Group> groups = new LinkedHashMap<>();
  /** Every allocation a bundle holds, by its id in the pool (the idle bundle's, or its actor's job id). */
  private final Map<String, Slot> byAllocation = new HashMap<>();
  private final Map<String, String> ended = new LinkedHashMap<>(16, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
      return size() > ENDED_REMEMBERED;
    }
  };

  /** Records a group whose bundles the pool just granted, in bundle order. */
  Group add(String id, String clientId, GroupRequest request, List<Allocation> held) {
    Group g = new Group(id, clientId, request);
    for (int i = 0; i < held.size(); i++) {
      Slot s = new Slot(g, i, held.get(i));
      g.slots.add(s);
      byAllocation.put(s.held.jobId(), s);
    }
    groups.put(id, g);
    return g;
  }

  Optional<Group> group(String id) {
    return Optional.ofNullable(groups.get(id));
  }

  /** Why a group that is gone ended, if it is remembered. */
  Optional<String> endOf(String id) {
    return Optional.ofNullable(ended.get(id));
  }

  /** The bundle that holds this allocation of the pool, if one does. */
  Optional<Slot> slotOf(String allocationId) {
    return Optional.ofNullable(byAllocation.get(allocationId));
  }

  /** An actor's job takes the idle bundle's allocation, under the same id. */
  void occupy(Slot s) {
    s.jobId = s.held.jobId();
  }

  /** The bundle's actor ended: the bundle, idle again, holds the same resources under {@code renamed}'s id. */
  void vacate(Slot s, Allocation renamed) {
    byAllocation.remove(s.held.jobId());
    s.held = renamed;
    s.jobId = null;
    byAllocation.put(renamed.jobId(), s);
  }

  /**
   * Forgets a group, remembering why it ended. Its allocations are no longer bundles: the caller gives the
   * idle ones back to the pool and stops the jobs, whose allocations return when they end.
   */
  Group remove(String id, String why) {
    Group g = groups.remove(id);
    for (Slot s : g.slots) {
      byAllocation.remove(s.held.jobId());
    }
    ended.put(id, why);
    return g;
  }

  List<Group> groups() {
    return List.copyOf(groups.values());
  }

  List<Group> groupsOf(String clientId) {
    return groups.values().stream().filter(g -> g.clientId.equals(clientId)).toList();
  }

  int idleBundles() {
    int n = 0;
    for (Group g : groups.values()) {
      for (Slot s : g.slots) {
        n += s.idle() ? 1 : 0;
      }
    }
    return n;
  }
}
