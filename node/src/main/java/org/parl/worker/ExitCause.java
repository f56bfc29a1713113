package org.parl.worker;

/** Why a job process ended, in the words its client and the monitor show. */
final class ExitCause {

  private ExitCause() {}

  /** @param code the process's exit status */
  static String of(JobProcess p, int code) {
    if (p.killCause != null) {
      return p.killCause;
    }
    if (code == 0) {
      return "the job process ended";
    }
    if (code == JobLauncher.OOM_EXIT) {
      return p.memoryLimitMb > 0
          ? "memory limit: its Java heap filled maxMemoryMb=" + p.memoryLimitMb + " (OutOfMemoryError)"
          : "it ran out of Java heap (OutOfMemoryError)";
    }
    if (code > 128) {
      return "the job process was killed by signal " + (code - 128);
    }
    return "the job process exited with status " + code;
  }
}
