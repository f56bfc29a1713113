package org.parl.worker;

/**
 * Why a job process ended, in the words its client and the monitor show. The memory limit is named
 * only when the actor's code used the memory: the worker's memory watch killed it, or the JVM halted
 * for an OutOfMemoryError (status 3 without last words: a {@code System.exit(3)} says it exits).
 * A job that stopped itself says why, and a kill says who killed it.
 */
final class ExitCause {

  private ExitCause() {}

  /** @param code the process's exit status */
  static String of(JobProcess p, int code) {
    if (p.killCause() != null) {
      return p.killCause();
    }
    if (p.stopCause() != null) {
      return p.stopCause();
    }
    if (code == 0) {
      return "the job process ended";
    }
    if (code == JobLauncher.OOM_EXIT && !p.exitedItself()) {
      return p.memoryLimitMb() > 0
          ? "memory limit: its Java heap filled maxMemoryMb=" + p.memoryLimitMb() + " (OutOfMemoryError)"
          : "it ran out of Java heap (OutOfMemoryError)";
    }
    if (code > 128) {
      return "the job process was killed by signal " + (code - 128);
    }
    return "the job process exited with status " + code;
  }
}
