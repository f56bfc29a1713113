package org.parl.master;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.parl.cluster.Addresses;
import org.parl.control.ControlBus;
import org.parl.control.ControlReply.Held;
import org.parl.control.GatewayQuery.ListHeld;
import org.parl.ha.MasterRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops the jobs that no client holds any more, after a master left or took over (docs/contract.md §10): a
 * client of the master that left either resumes its session at another master's gateway within the
 * grace period, or is gone; a job granted in the old master's last moments may be known to nobody.
 * The jobs that existed when the sweep was scheduled and that no live gateway claims are stopped;
 * when a gateway does not answer, nothing is stopped and the sweep is tried again later. Used on
 * the JobCenter's context.
 */
final class ClientSweep {

  private static final Logger log = LoggerFactory.getLogger(ClientSweep.class);
  /** Longer than a client takes to resume at another master (its connection breaks at once, or within its ping limit). */
  static final long GRACE_MS = 15_000;
  private static final long ASK_TIMEOUT_MS = 5_000;

  private final Vertx vertx;
  private final Supplier<List<MasterRecord>> masters;
  private final Supplier<Set<String>> jobs;
  private final Consumer<String> stop;

  /**
   * @param masters the live masters, whose gateways are asked
   * @param jobs the JobCenter's jobs now
   * @param stop stops one job that nobody holds
   */
  ClientSweep(Vertx vertx, Supplier<List<MasterRecord>> masters, Supplier<Set<String>> jobs, Consumer<String> stop) {
    this.vertx = vertx;
    this.masters = masters;
    this.jobs = jobs;
    this.stop = stop;
  }

  /** Sweeps the jobs that exist now, after the grace period. */
  void schedule(String why) {
    Set<String> candidates = jobs.get();
    if (!candidates.isEmpty()) {
      vertx.setTimer(GRACE_MS, t -> sweep(candidates, why));
    }
  }

  private void sweep(Set<String> candidates, String why) {
    List<Future<Held>> answers = masters.get().stream()
        .map(m -> ControlBus.request(vertx, Addresses.gateway(m.memberId()), new ListHeld(), ASK_TIMEOUT_MS))
        .toList();
    Future.all(answers).onComplete(ar -> {
      if (ar.failed()) {
        log.warn("could not ask every master which jobs its clients hold ({}): trying again", ar.cause().getMessage());
        vertx.setTimer(GRACE_MS, t -> sweep(candidates, why));
        return;
      }
      Set<String> held = new HashSet<>();
      answers.forEach(a -> held.addAll(a.result().jobIds()));
      Set<String> orphans = new HashSet<>(candidates);
      orphans.retainAll(jobs.get());
      orphans.removeAll(held);
      if (!orphans.isEmpty()) {
        log.warn("stopping {} job(s) that no client holds after {}: {}", orphans.size(), why, orphans);
        orphans.forEach(stop);
      }
    });
  }
}
