package org.parl.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExitCauseTest {

  private static JobProcess process(int memoryLimitMb) {
    return new JobProcess("w1-1", List.of(), memoryLimitMb, false, Path.of("log"), Path.of("work"));
  }

  @Test
  void theWorkersOwnReasonWins() {
    JobProcess p = process(0);
    p.kill("the job process stopped answering for 10 s");
    assertEquals("the job process stopped answering for 10 s", ExitCause.of(p, 137));
  }

  @Test
  void exitStatusesInWords() {
    assertEquals("the job process ended", ExitCause.of(process(0), 0));
    assertEquals("the job process exited with status 1", ExitCause.of(process(0), 1));
    assertEquals("the job process was killed by signal 9", ExitCause.of(process(0), 137));
    assertEquals("it ran out of Java heap (OutOfMemoryError)", ExitCause.of(process(0), JobLauncher.OOM_EXIT));
    assertEquals("memory limit: its Java heap filled maxMemoryMb=256 (OutOfMemoryError)",
        ExitCause.of(process(256), JobLauncher.OOM_EXIT));
  }

  @Test
  void theLimitIsNamedOnlyWhenTheJvmHaltedForOutOfMemory() {
    JobProcess halted = process(128);
    assertEquals("memory limit: its Java heap filled maxMemoryMb=128 (OutOfMemoryError)", ExitCause.of(halted, JobLauncher.OOM_EXIT));
    JobProcess exitedItself = process(128);
    exitedItself.saidExiting(); // System.exit(3) from the actor's code: its last words came
    assertEquals("the job process exited with status 3", ExitCause.of(exitedItself, JobLauncher.OOM_EXIT));
  }

  @Test
  void aJobThatStoppedItselfSaysWhyAndAKillStillWins() {
    JobProcess p = process(128);
    p.saidStopping("its client sent a payload of 100.0 MiB that the job's heap cannot hold");
    assertEquals("its client sent a payload of 100.0 MiB that the job's heap cannot hold", ExitCause.of(p, 1));
    p.kill("stopped by its client");
    assertEquals("stopped by its client", ExitCause.of(p, 137));
  }
}
