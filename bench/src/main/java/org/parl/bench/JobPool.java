package org.parl.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits until a worker's job processes are started and idle, so that a "warm" measurement finds
 * the warm pool full and no JVM start competing for the CPU. For a cluster the benchmark started,
 * it watches the master's job processes ({@code org.parl.job.JobMain} children) and their CPU time
 * in {@code /proc}; for a cluster given by address it can only wait a fixed time.
 */
final class JobPool {

  private static final Logger log = LoggerFactory.getLogger(JobPool.class);
  private static final long POLL_MS = 100;
  /** CPU ticks (1/100 s) all job processes may use in a quiet window of {@link #QUIET_POLLS} polls. */
  private static final long QUIET_TICKS = 2;
  private static final int QUIET_POLLS = 3;
  private static final long TIMEOUT_MS = 20_000;

  private final Long masterPid;
  private final long fixedPauseMs;

  private JobPool(Long masterPid, long fixedPauseMs) {
    this.masterPid = masterPid;
    this.fixedPauseMs = fixedPauseMs;
  }

  static JobPool watching(long masterPid) {
    return new JobPool(masterPid, 0);
  }

  static JobPool pausing(long pauseMs) {
    return new JobPool(null, pauseMs);
  }

  /**
   * Waits until at least {@code expected} job processes exist and all of them have been idle for a
   * moment; returns false (after a warning) when that did not happen within the timeout.
   */
  boolean awaitIdle(int expected) throws InterruptedException {
    if (masterPid == null) {
      Thread.sleep(fixedPauseMs);
      return true;
    }
    long deadline = System.currentTimeMillis() + TIMEOUT_MS;
    long[] history = new long[QUIET_POLLS + 1];
    int filled = 0;
    while (System.currentTimeMillis() < deadline) {
      List<ProcessHandle> jobs = jobs();
      long ticks = jobs.stream().mapToLong(JobPool::cpuTicks).sum();
      System.arraycopy(history, 1, history, 0, QUIET_POLLS);
      history[QUIET_POLLS] = ticks;
      filled = jobs.size() >= expected ? filled + 1 : 0;
      if (filled > QUIET_POLLS && history[QUIET_POLLS] - history[0] <= QUIET_TICKS) {
        return true;
      }
      Thread.sleep(POLL_MS);
    }
    log.warn("the worker's job processes did not settle within {} s (wanted {} idle ones); measuring anyway",
        TIMEOUT_MS / 1000, expected);
    return false;
  }

  /** The job processes of the master's local worker. */
  List<ProcessHandle> jobs() {
    return ProcessHandle.of(masterPid).stream()
        .flatMap(ProcessHandle::children)
        .filter(p -> p.info().arguments().map(a -> List.of(a).contains("org.parl.job.JobMain")).orElse(false))
        .toList();
  }

  /** utime + stime of a process, in clock ticks; 0 when it is gone. */
  static long cpuTicks(ProcessHandle p) {
    try {
      String stat = Files.readString(Path.of("/proc", String.valueOf(p.pid()), "stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }
}
