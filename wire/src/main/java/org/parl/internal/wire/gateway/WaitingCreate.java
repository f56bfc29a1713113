package org.parl.internal.wire.gateway;

import java.util.List;
import org.parl.internal.wire.Checks;

/**
 * A create that waits for resources, with why: what {@code parl status --waiting}, the monitor's
 * Waiting view and {@code GET /api/waiting} show.
 *
 * @param requestId the JobCenter's number for it
 * @param clientId the client that asked
 * @param program the client's program
 * @param actorClass the actor's class
 * @param ageMs how long it has waited
 * @param asks what it asks for, in words ("2 GPU(s)", "0.25 of a GPU with 4096 MiB of GPU memory")
 * @param ahead how many earlier requests wait before it
 * @param reasonClass the kind of constraint that stops it, for metrics: {@code queued}, {@code busy},
 *     {@code model}, {@code memory}, {@code out_of_service} or {@code no_worker}
 * @param reason one sentence: why it waits
 * @param details per worker, or per group of alike workers, the one constraint that stops it
 */
public record WaitingCreate(long requestId, String clientId, String program, String actorClass, long ageMs, String asks, int ahead,
    String reasonClass, String reason, List<String> details) {

  /** Most detail lines per request. */
  public static final int MAX_DETAILS = 16;

  public WaitingCreate {
    Checks.name("clientId", clientId);
    program = Checks.name("program", program, "?");
    Checks.name("actorClass", actorClass);
    Checks.range("ageMs", ageMs, 0, Long.MAX_VALUE);
    asks = Checks.text("asks", asks, Checks.MAX_STRING);
    Checks.range("ahead", ahead, 0, Integer.MAX_VALUE);
    Checks.name("reasonClass", reasonClass);
    reason = Checks.text("reason", reason, Checks.MAX_TEXT);
    details = Checks.list("details", details, MAX_DETAILS);
  }
}
