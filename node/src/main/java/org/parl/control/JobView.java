package org.parl.control;

import org.parl.internal.wire.Checks;
import org.parl.internal.wire.gateway.Job;

/**
 * A job process as its worker sees it, for the monitor: the job placed on it, and how the process
 * fares. Only processes with a job are shown; its GPUs are the job's.
 *
 * @param slot the worker's name for the process
 * @param state {@code starting}, {@code idle}, {@code assigned} or {@code ended}
 * @param memoryLimitMb the memory limit the process runs under, or 0 for none
 * @param endedAt when it ended, or null while it runs
 * @param calls calls it has served, as of its last keep-alive
 * @param cause why it ended, or null while it runs
 */
public record JobView(Job job, String slot, long pid, String state, int memoryLimitMb, long startedAt, Long endedAt, long calls,
    String cause) {

  public JobView {
    Checks.present("job", job);
    Checks.name("slot", slot);
    Checks.name("state", state);
    Checks.range("memoryLimitMb", memoryLimitMb, 0, 1 << 24);
    Checks.text("cause", cause, Checks.MAX_TEXT);
  }
}
