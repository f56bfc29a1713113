package org.parl;

import java.time.Duration;
import java.util.List;

/**
 * A create that waits for resources on the cluster, with why, as {@link ParlClient#waiting()} and
 * {@code parl status --waiting} show it.
 *
 * @param clientId the client that asked (compare with {@link ParlClient#id()} to find your own)
 * @param actorClass the actor's class
 * @param waited how long it has waited so far
 * @param asks what it asks for, in words ("2 GPU(s)", "0.25 of a GPU with 4096 MiB of GPU memory")
 * @param ahead how many earlier requests wait before it
 * @param reason one sentence: why it waits
 * @param details per worker, or per group of alike workers, the one constraint that stops it
 */
public record PendingCreate(String clientId, String actorClass, Duration waited, String asks, int ahead, String reason,
    List<String> details) {

  public PendingCreate {
    details = List.copyOf(details);
  }
}
