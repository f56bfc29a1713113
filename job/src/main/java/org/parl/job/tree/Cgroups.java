package org.parl.job.tree;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Where this process sits in the cgroup v2 hierarchy, and how a worker names its job cgroups. */
public final class Cgroups {

  /** A worker's group of job cgroups is {@code parl-w<workerpid>}, one cgroup per job inside. */
  public static final String GROUP_PREFIX = "parl-w";

  private Cgroups() {}

  /** This process's own cgroup in the v2 hierarchy, if one is mounted; blocking (tiny reads). */
  public static Optional<Path> own() {
    try {
      Optional<Path> mount = Files.readAllLines(Path.of("/proc/self/mountinfo")).stream()
          .map(line -> line.split(" - ", 2))
          .filter(parts -> parts.length == 2 && parts[1].startsWith("cgroup2 "))
          .map(parts -> Path.of(parts[0].split(" ")[4]))
          .findFirst();
      Optional<String> own = Files.readAllLines(Path.of("/proc/self/cgroup")).stream()
          .filter(line -> line.startsWith("0::")).map(line -> line.substring(3)).findFirst();
      if (mount.isEmpty() || own.isEmpty()) {
        return Optional.empty();
      }
      String rel = own.get().startsWith("/") ? own.get().substring(1) : own.get();
      return Optional.of(rel.isEmpty() ? mount.get() : mount.get().resolve(rel));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Whether {@code group} is a job's cgroup: a directory in a worker's group of job cgroups. */
  static boolean isJobGroup(Path group) {
    Path parent = group.getParent();
    return parent != null && parent.getFileName() != null && parent.getFileName().toString().startsWith(GROUP_PREFIX);
  }
}
