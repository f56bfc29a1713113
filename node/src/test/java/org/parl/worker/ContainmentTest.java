package org.parl.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.parl.job.tree.JobTree;
import org.parl.job.tree.ProcStat;
import org.parl.job.tree.SessionTree;

/**
 * The trees of job processes, on this host: a process started through {@code setsid} with a child
 * of its own, and one that left the session while its parent lives, are found and killed.
 */
class ContainmentTest {

  @Test
  void procStatReadsOddCommandNames() {
    Optional<ProcStat> s = ProcStat.parse(42, "42 (a (b) c) S 1 42 40 0 -1 4194560 0 0");
    assertEquals(new ProcStat(42, 'S', 1, 42, 40), s.orElseThrow());
    assertTrue(ProcStat.parse(42, "garbage").isEmpty());
    assertTrue(ProcStat.running(ProcessHandle.current().pid()));
  }

  @Test
  void aSessionTreeKillsItsWholeSession() throws Exception {
    Process leader = new ProcessBuilder("setsid", "sh", "-c", "sleep 600 & setsid sleep 600 & wait").start();
    JobTree tree = new SessionTree(leader.pid());
    awaitSize(tree, 3);
    List<Long> left = tree.killAndWait(5_000);
    assertEquals(List.of(), left, "every process of the tree is gone");
    // the tree counts a zombie as gone; this JVM reaps its child a moment later
    assertTrue(leader.waitFor(5, TimeUnit.SECONDS), "the leader was killed");
  }

  @Test
  void closeRemovesTheEmptyJobGroupsAndThenItsOwn(@TempDir Path dir) throws Exception {
    Path base = Files.createDirectory(dir.resolve("parl-w1"));
    Files.createDirectory(base.resolve("j0"));
    Files.createDirectory(base.resolve("j1"));
    new Containment(base, "test").close();
    assertFalse(Files.exists(base), "the worker's group and its empty job groups are gone");
  }

  @Test
  void closeKeepsAGroupThatCannotBeRemoved(@TempDir Path dir) throws Exception {
    Path base = Files.createDirectory(dir.resolve("parl-w1"));
    Files.createDirectory(base.resolve("j0"));
    // on a cgroup file system a group with members refuses rmdir; a file in a plain folder does the same here
    Files.writeString(Files.createDirectory(base.resolve("busy")).resolve("member"), "1");
    new Containment(base, "test").close();
    assertFalse(Files.exists(base.resolve("j0")), "the empty group is removed");
    assertTrue(Files.exists(base.resolve("busy")), "the busy group stays");
    assertTrue(Files.exists(base), "so does the worker's group that holds it");
  }

  @Test
  void closeWithoutCgroupsDoesNothing() {
    new Containment(null, "a session per job").close();
  }

  @Test
  void theDetectedContainmentHoldsAProcessThatLeftItsSession() throws Exception {
    Containment containment = Containment.detect();
    Process leader = new ProcessBuilder("setsid", "sh", "-c",
        "read go; setsid sleep 600 >/dev/null 2>&1 & echo $!; exec sleep 600").start();
    JobTree tree = containment.adopt(leader.pid(), "test-" + ProcessHandle.current().pid());
    // the leader goes in before it makes the child that leaves its session, as a job goes in before its actor runs
    leader.getOutputStream().write("go\n".getBytes());
    leader.getOutputStream().flush();
    long escaped = Long.parseLong(new java.io.BufferedReader(new java.io.InputStreamReader(leader.getInputStream()))
        .readLine().trim());
    // with a cgroup the child is a member; without, it is found as the leader's descendant
    assertTrue(ProcStat.running(escaped));
    assertTrue(tree.pids().contains(escaped) || !containment.describe().startsWith("a cgroup"),
        containment.describe() + ": " + tree.pids());
    assertEquals(List.of(), tree.killAndWait(5_000));
    assertFalse(ProcStat.running(escaped), "the process that left the session died with the job");
    tree.release();
    containment.close();
  }

  private static void awaitSize(JobTree tree, int n) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 10_000;
    while (tree.pids().size() < n && System.currentTimeMillis() < deadline) {
      Thread.sleep(10);
    }
    assertEquals(n, tree.pids().size(), "the tree's processes: " + tree.pids());
  }
}
