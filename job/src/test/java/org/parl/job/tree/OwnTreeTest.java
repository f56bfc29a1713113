package org.parl.job.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A JVM outside any job cgroup (this test's) sees its tree as its descendants and session: ending
 * it kills a child, and a grandchild that left the session while its parent lives, and leaves this
 * JVM running.
 */
class OwnTreeTest {

  @Test
  void endingItsOwnTreeKillsEveryOtherProcessOfIt() throws Exception {
    Process child = new ProcessBuilder("sh", "-c", "setsid sleep 600 >/dev/null 2>&1 & echo $!; exec sleep 600").start();
    long grandchild = Long.parseLong(new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))
        .readLine().trim());
    assertTrue(ProcStat.running(grandchild));

    List<Long> left = OwnTree.endOthers(5_000);

    assertEquals(List.of(), left, "every other process of the tree is gone");
    assertTrue(child.waitFor(5, TimeUnit.SECONDS), "the child was killed"); // reaped by this JVM a moment after
    assertFalse(ProcStat.running(grandchild), "the grandchild that left the session died too");
    assertTrue(ProcStat.running(ProcessHandle.current().pid()), "the JVM itself lives on");
  }

  @Test
  void onlyAWorkersJobGroupCountsAsAJobsCgroup() {
    assertTrue(Cgroups.isJobGroup(Path.of("/sys/fs/cgroup/x/parl-w123/job-1")));
    assertFalse(Cgroups.isJobGroup(Path.of("/sys/fs/cgroup/user.slice/session-1.scope")));
    assertFalse(Cgroups.isJobGroup(Path.of("/")));
  }
}
