package org.parl.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Pins processes, all their threads, to one CPU with {@code taskset} (util-linux), and gives them
 * every CPU back when closed: for the rows that compare a round trip within one CPU with one
 * between two.
 */
final class CpuPinning implements AutoCloseable {

  private static final long TASKSET_MS = 10_000;

  private final int cpus;
  private final List<Long> pinned = new ArrayList<>();

  /** @param cpus the CPUs this machine has; processes get {@code 0..cpus-1} back when closed */
  CpuPinning(int cpus) {
    this.cpus = cpus;
  }

  /** Why processes cannot be pinned here, or null when they can. */
  static String unavailable(int cpus) {
    if (cpus < 2) {
      return "this machine has one CPU";
    }
    try {
      taskset("-p", String.valueOf(ProcessHandle.current().pid()));
      return null;
    } catch (IOException e) {
      return e.getMessage();
    }
  }

  /** Pins every thread of process {@code pid} to CPU {@code cpu}. */
  void pin(long pid, int cpu) throws IOException {
    taskset("-a", "-p", "-c", String.valueOf(cpu), String.valueOf(pid));
    if (!pinned.contains(pid)) {
      pinned.add(pid);
    }
  }

  @Override
  public void close() {
    for (long pid : pinned) {
      try {
        taskset("-a", "-p", "-c", "0-" + (cpus - 1), String.valueOf(pid));
      } catch (IOException e) {
        // the process ended: nothing to give back
      }
    }
  }

  private static void taskset(String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of("taskset"));
    cmd.addAll(List.of(args));
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new IOException("taskset cannot run (" + e.getMessage() + "): install util-linux");
    }
    try {
      if (!p.waitFor(TASKSET_MS, TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new IOException(String.join(" ", cmd) + " did not end within " + TASKSET_MS + " ms");
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted");
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    if (p.exitValue() != 0) {
      throw new IOException(String.join(" ", cmd) + " failed: " + out);
    }
  }
}
