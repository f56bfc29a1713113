package org.parl.job.tree;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A job without a cgroup: its session (the JVM is the leader of a session of its own) and the
 * JVM's descendants, plus every member seen before (a handle remembers its process's start time,
 * so a reused pid is never killed).
 */
public final class SessionTree implements JobTree {

  private final long leader;
  private final Set<ProcessHandle> seen = new LinkedHashSet<>();

  /** @param leader the job JVM's pid, the leader of its session */
  public SessionTree(long leader) {
    this.leader = leader;
  }

  @Override
  public long leader() {
    return leader;
  }

  @Override
  public synchronized List<Long> pids() {
    ProcessHandle.of(leader).ifPresent(h -> {
      seen.add(h);
      h.descendants().forEach(seen::add);
    });
    for (long pid : ProcStat.inSession(leader)) {
      ProcessHandle.of(pid).ifPresent(seen::add);
    }
    seen.removeIf(h -> !h.isAlive() || !ProcStat.running(h.pid()));
    return seen.stream().map(ProcessHandle::pid).toList();
  }

  @Override
  public synchronized void kill() {
    pids();
    seen.forEach(ProcessHandle::destroyForcibly);
  }

  @Override
  public void release() {
    // nothing to remove
  }
}
