package org.parl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Wrong uses of {@code parl slurm} and {@code parl worker --slurm}: one line, and the exit code. */
class SlurmUsageTest {

  private record Outcome(int code, String err) {}

  private static Outcome run(String... args) {
    PrintStream saved = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      return new Outcome(Main.run(args), err.toString(StandardCharsets.UTF_8).strip());
    } finally {
      System.setErr(saved);
    }
  }

  @Test
  void slurmNeedsACommand() {
    Outcome o = run("slurm");
    assertEquals(2, o.code());
    assertTrue(o.err().startsWith("slurm: Missing required parameter: 'COMMAND'"), o.err());
  }

  @Test
  void slurmOutsideAnAllocationSaysWhereToRunIt() {
    Assumptions.assumeTrue(System.getenv("SLURM_JOB_ID") == null, "this test runs outside Slurm");
    Outcome o = run("slurm", "--", "true");
    assertEquals(1, o.code());
    assertEquals("parl: 'parl slurm' runs inside a Slurm allocation, and SLURM_JOB_ID is not set here: run it from an "
        + "sbatch script (or under salloc through srun)", o.err());
  }

  @Test
  void slurmRejectsBothClusterKinds() {
    Outcome o = run("slurm", "--gpu-cluster", "--cpu-cluster", "--", "true");
    assertEquals(2, o.code());
    assertTrue(o.err().contains("mutually exclusive"), o.err());
  }

  @Test
  void aSlurmWorkerTakesWhatSlurmBoundNotAList() {
    Outcome o = run("worker", "--address", "127.0.0.1:8010", "--slurm", "--gpus", "0,1");
    assertEquals(2, o.code());
    assertEquals("worker: --slurm lends what Slurm bound to this node: drop --cpus and --gpus (see 'parl worker --help')",
        o.err());
    Outcome d = run("worker", "--address", "127.0.0.1:8010", "--slurm", "--detach");
    assertEquals(2, d.code());
    assertTrue(d.err().startsWith("worker: --slurm does not go with --detach"), d.err());
  }
}
