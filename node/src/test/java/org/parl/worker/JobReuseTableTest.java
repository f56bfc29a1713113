package org.parl.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.parl.internal.wire.JobControl;
import org.parl.internal.wire.gateway.Job;

class JobReuseTableTest {

  private static JobProcess process(String slot, List<Integer> gpus) {
    return new JobProcess(slot, gpus, 0, true, Path.of("logs", slot + ".log"), Path.of("jobs", slot));
  }

  @Test
  void aTakenBackProcessKeepsItsGpusAndDirectoryWithASlotAndLogOfItsOwn() {
    JobProcess first = new JobProcess("a-1", List.of(2), 0, true, Path.of("logs", "a-1.log"), Path.of("jobs", "a-1"), true);
    first.placed(job("job-1"));
    JobProcess next = first.takenBack("a-2", Path.of("logs", "a-2.log"));
    assertSame(next, first.successor());
    assertSame(next, first.latest());
    assertSame(next, next.latest());
    assertEquals(List.of(2), next.gpus());
    assertEquals(first.workDir(), next.workDir());
    assertEquals(first.secret(), next.secret());
    assertTrue(next.encryptData());
    assertTrue(next.reused());
    assertNotEquals(first.log(), next.log());
    assertNull(next.job(), "no job yet: it is warm");
    assertNull(next.lastReady(), "its data-port credential comes with its next ready");
    assertEquals(JobProcess.State.RECYCLING, next.state());
  }

  @Test
  void aRecyclingProcessIsNotOfferedUntilItIsReadyAgainAndOnlyForItsGpus() {
    JobTable table = new JobTable();
    JobProcess first = process("a-1", List.of(1));
    table.add(first);
    table.reserve(first, job("job-1"));
    JobProcess next = first.takenBack("a-2", Path.of("logs", "a-2.log"));
    table.ended(first);
    table.add(next);
    assertEquals(Optional.empty(), WarmPool.best(table.live(), List.of(1)), "still checking that its actor left nothing");
    next.readyAgain(ready(next));
    assertEquals(Optional.of(next), WarmPool.best(table.live(), List.of(1)));
    assertEquals(Optional.empty(), WarmPool.best(table.live(), List.of(0)), "another GPU's actor never lands on it");
    assertEquals(Optional.empty(), WarmPool.best(table.live(), List.of()), "nor a CPU actor");
    assertSame(first, table.job("job-1").orElseThrow(), "the first job stays in the history");
  }

  @Test
  void theReadyProcessThatServedTheMostActorsIsOfferedFirst() {
    JobTable table = new JobTable();
    JobProcess fresh = process("a-1", List.of());
    fresh.becameReady(null, null, ready(fresh));
    table.add(fresh);
    JobProcess used = process("b-1", List.of());
    table.add(used);
    table.reserve(used, job("job-1"));
    JobProcess once = used.takenBack("b-2", Path.of("logs", "b-2.log"));
    table.ended(used);
    table.add(once);
    assertEquals(Optional.of(fresh), WarmPool.best(table.live(), List.of()), "the one served before is still recycling");
    once.readyAgain(ready(once));
    assertEquals(1, once.actorsServed());
    assertEquals(Optional.of(once), WarmPool.best(table.live(), List.of()), "its create and call paths are compiled");
    table.reserve(once, job("job-2"));
    JobProcess twice = once.takenBack("b-3", Path.of("logs", "b-3.log"));
    table.ended(once);
    table.add(twice);
    assertEquals(2, twice.actorsServed());
    table.add(process("c-1", List.of()));
    assertEquals(Optional.of(fresh), WarmPool.best(table.live(), List.of()), "ready before starting, however often served");
  }

  private static JobControl.Ready ready(JobProcess p) {
    return new JobControl.Ready(p.slot(), 4321, 4242, "cd".repeat(32), "cd".repeat(32)); // no OS process: any pid
  }

  private static Job job(String id) {
    return new Job(id, "c", "w-1", "my.Actor", 1, List.of(), 0, 0);
  }
}
