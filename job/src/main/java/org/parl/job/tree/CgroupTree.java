package org.parl.job.tree;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A job in a cgroup of its own: exact membership, killed at once. */
public final class CgroupTree implements JobTree {

  private final long leader;
  private final Path group;

  /**
   * @param leader the job JVM's pid, or -1 where it is not known (a dead worker's leftover group)
   * @param group the job's cgroup directory
   */
  public CgroupTree(long leader, Path group) {
    this.leader = leader;
    this.group = group;
  }

  @Override
  public long leader() {
    return leader;
  }

  @Override
  public List<Long> pids() {
    List<Long> out = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(group.resolve("cgroup.procs"))) {
        if (!line.isBlank()) {
          long pid = Long.parseLong(line.trim());
          if (ProcStat.running(pid)) {
            out.add(pid);
          }
        }
      }
    } catch (IOException | NumberFormatException e) {
      // the group is gone: so is the tree
    }
    return out;
  }

  @Override
  public void kill() {
    Path killFile = group.resolve("cgroup.kill");
    try {
      if (Files.exists(killFile)) {
        Files.writeString(killFile, "1");
        return;
      }
    } catch (IOException e) {
      // killed one by one below
    }
    pids().forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
  }

  @Override
  public void release() {
    try {
      Files.deleteIfExists(group);
    } catch (IOException e) {
      // still in use, or gone already: nothing more to do
    }
  }
}
