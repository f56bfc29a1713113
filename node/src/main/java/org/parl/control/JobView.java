package org.parl.control;

import java.util.List;
import org.parl.wire.Checks;
import org.parl.wire.gateway.WorkerState;

/**
 * A job process as its worker sees it, for the monitor.
 *
 * @param state {@code starting}, {@code idle}, {@code assigned} or {@code ended}
 * @param endedAt when it ended, or null while it runs
 * @param calls calls it has served, as of its last keep-alive
 * @param cause why it ended, or null while it runs
 */
public record JobView(
    String jobId,
    String slot,
    String clientId,
    String actorClass,
    long pid,
    String state,
    List<Integer> gpus,
    int memoryLimitMb,
    long startedAt,
    Long endedAt,
    long calls,
    String cause) {

  public JobView {
    Checks.name("jobId", jobId);
    Checks.name("slot", slot);
    Checks.name("clientId", clientId, null);
    Checks.name("actorClass", actorClass, null);
    Checks.name("state", state);
    gpus = Checks.ids("gpus", gpus, WorkerState.MAX_GPUS);
    Checks.range("memoryLimitMb", memoryLimitMb, 0, 1 << 24);
    Checks.text("cause", cause, Checks.MAX_TEXT);
  }
}
