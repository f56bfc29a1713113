package org.parl.worker;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.parl.job.tree.CgroupTree;
import org.parl.job.tree.Cgroups;
import org.parl.job.tree.JobTree;
import org.parl.job.tree.ProcStat;
import org.parl.job.tree.SessionTree;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a worker keeps each job's processes together, so that ending a job ends all of them.
 *
 * <p>Every job JVM starts in a session and process group of its own ({@code setsid}). Where the
 * host lets this worker make cgroups (a cgroup v2 hierarchy, as root or delegated to its user:
 * {@code /sys/fs/cgroup} on a pure v2 host, {@code /sys/fs/cgroup/unified} on a hybrid one), each job
 * also gets a cgroup of its own, {@code parl-w<workerpid>/<slot>} under the worker's cgroup: a
 * process cannot leave it, whatever it does ({@code setsid}, double fork), the tree is killed at once
 * ({@code cgroup.kill}) and its members are listed exactly. Where it cannot, the tree is the job's
 * session plus the JVM's descendants: a process that both leaves the session and outlives its parent
 * is then not found, which the worker says once at start.
 *
 * <p>A worker that died with jobs still running leaves its cgroups behind: the next worker on the
 * host kills what runs in them and removes them ({@link #sweep}).
 */
final class Containment {

  private static final Logger log = LoggerFactory.getLogger(Containment.class);
  /** How long a sweep waits for a dead worker's leftover jobs to be gone. */
  private static final long SWEEP_WAIT_MS = 5_000;

  /** The worker's own cgroup of job cgroups, or null where the host allows none. */
  private final Path base;
  private final String description;

  Containment(Path base, String description) {
    this.base = base;
    this.description = description;
  }

  /** Finds what this host allows and says it in one log line; blocking. */
  static Containment detect() {
    Optional<Path> own = Cgroups.own();
    if (own.isEmpty()) {
      return session("no cgroup v2 hierarchy is mounted");
    }
    Path base = own.get().resolve(Cgroups.GROUP_PREFIX + ProcessHandle.current().pid());
    try {
      Files.createDirectories(base);
      Path probe = Files.createDirectory(base.resolve("probe"));
      Files.delete(probe);
    } catch (IOException | SecurityException e) {
      return session("cgroups cannot be made under " + own.get() + " (" + e.getMessage() + ")");
    }
    Containment c = new Containment(base, "a cgroup per job under " + base
        + (Files.exists(base.resolve("cgroup.kill")) ? "" : " (no cgroup.kill: members are killed one by one)"));
    log.info("job containment: {}", c.description);
    return c;
  }

  private static Containment session(String why) {
    Containment c = new Containment(null, "a session per job (" + why + "): a process that leaves its job's session and "
        + "outlives its parent is not found");
    log.warn("job containment: {}", c.description);
    return c;
  }

  String describe() {
    return description;
  }

  /**
   * Puts a job JVM that was just started in a tree of its own. Nothing has run the actor's code yet
   * (a job runs code only once it is ready and assigned), so nothing it started can be missed.
   */
  JobTree adopt(long pid, String slot) {
    if (base != null) {
      Path group = base.resolve(slot);
      try {
        Files.createDirectory(group);
        Files.writeString(group.resolve("cgroup.procs"), Long.toString(pid));
        return new CgroupTree(pid, group);
      } catch (IOException | SecurityException e) {
        log.warn("job process {} could not be put in cgroup {} ({}): its tree is its session", pid, group, e.getMessage());
        deleteQuietly(group);
      }
    }
    return new SessionTree(pid);
  }

  /** Kills what runs in the cgroups of workers that died on this host, and removes them; blocking. */
  void sweep() {
    if (base == null) {
      return;
    }
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(base.getParent(), Cgroups.GROUP_PREFIX + "*")) {
      for (Path dead : dirs) {
        String pid = dead.getFileName().toString().substring(Cgroups.GROUP_PREFIX.length());
        if (!dead.equals(base) && pid.chars().allMatch(Character::isDigit) && !pid.isEmpty()
            && !ProcStat.running(Long.parseLong(pid))) {
          sweepGroup(dead);
        }
      }
    } catch (IOException e) {
      log.warn("could not look for the cgroups of dead workers: {}", e.getMessage());
    }
  }

  private static void sweepGroup(Path dead) throws IOException {
    List<Path> jobs = new ArrayList<>();
    try (DirectoryStream<Path> groups = Files.newDirectoryStream(dead, Files::isDirectory)) {
      groups.forEach(jobs::add);
    }
    for (Path group : jobs) {
      CgroupTree tree = new CgroupTree(-1, group);
      List<Long> left = tree.killAndWait(SWEEP_WAIT_MS);
      if (left.isEmpty()) {
        tree.release();
      } else {
        log.warn("processes {} of a dead worker's job survive SIGKILL in {}", left, group);
      }
    }
    if (deleteQuietly(dead)) {
      log.info("removed the job cgroups of a worker that died ({}), with {} job(s)", dead, jobs.size());
    }
  }

  /**
   * Removes the worker's own group once every job tree is gone, with the empty groups its jobs left
   * (a job whose end was not waited for keeps its group until here); blocking. A group that still
   * holds a process stays, and is said once.
   */
  void close() {
    if (base == null) {
      return;
    }
    try (DirectoryStream<Path> groups = Files.newDirectoryStream(base, Files::isDirectory)) {
      for (Path group : groups) {
        if (!deleteQuietly(group)) {
          log.warn("job cgroup {} still holds processes: it stays", group);
        }
      }
    } catch (IOException e) {
      log.warn("could not list the job cgroups under {}: {}", base, e.getMessage());
    }
    deleteQuietly(base);
  }

  private static boolean deleteQuietly(Path dir) {
    try {
      Files.deleteIfExists(dir);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
