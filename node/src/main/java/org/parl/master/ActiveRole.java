package org.parl.master;

import io.vertx.core.Deployable;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.parl.cluster.Addresses;
import org.parl.control.LocalEvent.MastersChanged;
import org.parl.ha.MasterDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A master's role (docs/contract.md §10): standby until the election names it, then active for good: it deploys
 * the JobCenter, which rebuilds the pool and serves. An active master that finds another one elected
 * (it was cut off and the cluster went on without it) hands itself to {@code demoted}: it stops, and
 * may be restarted as a standby.
 */
public final class ActiveRole extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(ActiveRole.class);

  private final String self;
  private final MasterDirectory directory;
  private final Supplier<Deployable> jobCenter;
  private final Consumer<String> demoted;
  private final Promise<Void> active = Promise.promise();
  private boolean deployed;

  /**
   * @param self this master's member UUID
   * @param jobCenter makes the JobCenter to deploy once active
   * @param demoted told why, when this master must stop
   */
  public ActiveRole(String self, MasterDirectory directory, Supplier<Deployable> jobCenter, Consumer<String> demoted) {
    this.self = self;
    this.directory = directory;
    this.jobCenter = jobCenter;
    this.demoted = demoted;
  }

  @Override
  public Future<?> start() {
    vertx.eventBus().localConsumer(Addresses.MASTERS_CHANGED, m -> {
      if (m.body() instanceof MastersChanged e) {
        changed(e.active());
      }
    });
    // an election before this consumer existed is in the directory's view
    directory.current().active().ifPresent(a -> changed(a.memberId()));
    return Future.succeededFuture();
  }

  /** Completes once this master is active and its JobCenter runs. */
  public Future<Void> active() {
    return active.future();
  }

  private void changed(String activeMember) {
    if (self.equals(activeMember)) {
      if (!deployed) {
        deployed = true;
        log.info("this master is now the active one: starting the JobCenter");
        vertx.deployVerticle(jobCenter.get()).<Void>mapEmpty().onComplete(active);
      }
    } else if (deployed && activeMember != null) { // none for a moment (a record being written again) is not another
      demoted.accept("another master (member " + activeMember + ") is active now: this one was cut off from the "
          + "cluster, and stops; restart it with --standby to stand by again");
    }
  }
}
