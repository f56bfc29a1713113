package org.parl.worker;

import io.vertx.core.Vertx;
import java.util.function.BiConsumer;
import org.parl.internal.wire.JobControl;

/**
 * Pings every connected job process and kills one that has not answered for {@link #HUNG_MS}: a
 * process that is alive but stuck (a deadlock, a stop signal) would otherwise hold its resources
 * forever. Runs on the worker verticle's context.
 */
final class Heartbeats {

  private static final long PING_MS = 2_000;
  private static final long HUNG_MS = 10_000;

  private final JobTable table;
  private final BiConsumer<JobProcess, String> kill;

  /** @param kill kills a process, with the cause its job ends with */
  Heartbeats(JobTable table, BiConsumer<JobProcess, String> kill) {
    this.table = table;
    this.kill = kill;
  }

  void start(Vertx vertx) {
    vertx.setPeriodic(PING_MS, t -> round(System.currentTimeMillis()));
  }

  private void round(long now) {
    for (JobProcess p : table.live().toList()) {
      if (p.state() == JobProcess.State.IDLE || p.state() == JobProcess.State.ASSIGNED) {
        if (now - p.lastPong() > HUNG_MS) {
          kill.accept(p, "the job process stopped answering for " + HUNG_MS / 1000 + " s");
        } else {
          ControlServer.send(p, new JobControl.Ping());
        }
      }
    }
  }
}
