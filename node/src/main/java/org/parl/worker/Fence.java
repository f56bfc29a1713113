package org.parl.worker;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.parl.internal.net.HostPort;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fencing (docs/contract.md §7): a worker that lost its master stops its jobs, so that no job outlives its
 * allocation and no GPU is offered again while a job from before still runs.
 *
 * <p>When the last master leaves the cluster (with standbys, the worker follows the new active
 * master instead, docs/contract.md §10), that master's gateway is probed. A gateway that refuses connections
 * belongs to a master that stopped or died: the worker stops its jobs and exits at once ("the master
 * at ... left the cluster"). Otherwise the master cannot be reached (this host or the master's was
 * cut off, or the master froze): it may live on and has dropped this worker from its pool, so after
 * {@link Fencing#limit()} (counted from the loss) the worker stops its jobs, waits until their
 * processes are gone, and exits. It never registers again: started anew, it joins with a clean slate.
 * Launches are refused from the loss on. Runs on the worker verticle's context.
 */
final class Fence {

  private static final Logger log = LoggerFactory.getLogger(Fence.class);
  private static final int PROBE_MS = 2_000;
  /**
   * The longest time from declaring every master gone to this worker's job processes reaped: each tree
   * gets SIGKILL at once (through containment), which the kernel carries out in milliseconds; the rest
   * is the event's way from Hazelcast's thread to this worker's context.
   */
  static final long STOP_MS = 1_000;

  private final Vertx vertx;
  private final Fencing fencing;
  private final String workerId;
  private final Function<String, Future<Integer>> stopJobs;
  private long lostAt;
  private HostPort master;
  /** The timer of a fence to come, cancelled when a live master answers first. */
  private long timer = -1;
  /** Set once the jobs are being stopped: from then on nothing cancels the fence. */
  private boolean stopping;

  /**
   * @param stopJobs stops every job process with the given cause; completes, once they are gone, with
   *     how many of them hosted a job
   */
  Fence(Vertx vertx, Fencing fencing, String workerId, Function<String, Future<Integer>> stopJobs) {
    this.vertx = vertx;
    this.fencing = fencing;
    this.workerId = workerId;
    this.stopJobs = stopJobs;
  }

  /** True once the master was lost: this worker takes no new job. */
  boolean masterGone() {
    return lostAt != 0;
  }

  /**
   * The last master left the cluster (Hazelcast says so): stop now, or after the limit.
   *
   * @param lost the gateway of the master that left, probed to tell a master that is gone (it refuses
   *     connections) from one that cannot be reached (a partition, a frozen master)
   * @param member its Hazelcast member UUID, named in the worker's last words
   */
  void masterLost(HostPort lost, String member) {
    if (masterGone()) {
      return;
    }
    lostAt = System.nanoTime();
    this.master = lost;
    long lostNow = lostAt;
    vertx.executeBlocking(() -> refuses(master), false).onComplete(ar -> {
      if (lostAt != lostNow || stopping) {
        return; // cancelled meanwhile by a live master, or fenced already
      }
      if (ar.succeeded() && ar.result()) {
        log.warn("the master at {} left the cluster (its gateway refuses connections): stopping", master);
        stopping = true;
        stopJobs.apply("its master stopped").onComplete(stopped -> fencing.stop().accept(
            "the master at " + master + " (member " + member + ") left the cluster; worker " + workerId
                + " stops"));
        return;
      }
      long leftMs = fencing.limit().toMillis() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lostAt);
      log.warn("lost the master at {} ({}): fencing in {} ms unless a live master answers first", master,
          ar.succeeded() ? "it cannot be reached" : ar.cause().getMessage(), Math.max(0, leftMs));
      timer = vertx.setTimer(Math.max(1, leftMs), t -> fence());
    });
  }

  /**
   * No master this worker knew of is a member of its cluster any more (this host was cut off, or
   * every master died together): no standby can take over, and the master that may live on
   * elsewhere lets its clients know only after its lease grace. The jobs are stopped now, so that
   * they are gone before any client hears of their loss; the master's gateway is probed only to say
   * which of the two it was.
   *
   * @param lost the gateway of the master that was active
   * @param member its Hazelcast member UUID
   */
  void mastersOutOfSight(HostPort lost, String member) {
    if (stopping) {
      return;
    }
    if (!masterGone()) {
      lostAt = System.nanoTime();
    }
    this.master = lost;
    vertx.cancelTimer(timer);
    log.warn("no master of this cluster is in sight (last active: {}): fencing now", lost);
    stopping = true;
    stopJobs.apply("its worker lost sight of every master (fencing)").onComplete(stopped -> vertx
        .executeBlocking(() -> refuses(master), false).onComplete(ar -> fencing.stop().accept(ar.succeeded() && ar.result()
            ? "the master at " + master + " (member " + member + ") left the cluster; worker " + workerId + " stops"
            : "lost sight of every master (last active: " + master + "): worker " + workerId + " stopped its "
                + (stopped.succeeded() ? stopped.result() + " " : "") + "job(s) so that none outlives its allocation, and "
                + "stops; start it again to rejoin with a clean slate")));
  }

  /**
   * A live master answered this worker (it took its registration): a fence that was only waiting
   * for the limit is cancelled, and the worker takes jobs again. One whose jobs are being stopped
   * goes on.
   *
   * @return true when a pending fence was cancelled
   */
  boolean cancel(String by) {
    if (!masterGone() || stopping) {
      return false;
    }
    vertx.cancelTimer(timer);
    lostAt = 0;
    log.info("master {} answered: the fence is cancelled", by);
    return true;
  }

  /** True from the moment the jobs are being stopped: this worker will exit. */
  boolean fenced() {
    return stopping;
  }

  private void fence() {
    stopping = true;
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - lostAt);
    log.warn("fencing: no master for {} s; stopping every job process", seconds);
    stopJobs.apply("its worker lost the master for " + seconds + " s (fencing)").onComplete(ar -> fencing.stop().accept(
        "lost the master at " + master + " for " + seconds + " s (a partition, or a frozen master): worker "
            + workerId + " stopped its " + (ar.succeeded() ? ar.result() + " " : "") + "job(s) so that none outlives its "
            + "allocation, and stops; start it again to rejoin with a clean slate"));
  }

  /** True when nothing listens at the master's gateway any more: the master process is gone. */
  private static boolean refuses(HostPort master) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(master.host(), master.port()), PROBE_MS);
      return false;
    } catch (ConnectException e) {
      return e.getMessage() != null && e.getMessage().contains("refused");
    } catch (IOException e) {
      return false;
    }
  }
}
