package org.parl.worker;

import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.parl.cluster.Addresses;
import org.parl.cluster.ClusterNode;
import org.parl.cluster.Ops;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's presence in the cluster: registers what it lends with the JobCenter and answers the
 * master's requests on {@code parl.worker.<id>}.
 */
public final class WorkerVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(WorkerVerticle.class);
  private static final long REGISTER_RETRY_MS = 200;
  private static final long REGISTER_DEADLINE_MS = 20_000;

  private final ClusterNode node;
  private final WorkerSettings settings;

  public WorkerVerticle(ClusterNode node, WorkerSettings settings) {
    this.node = node;
    this.settings = settings;
  }

  @Override
  public Future<?> start() {
    Ops ops = new Ops("worker " + settings.workerId(), log);
    return vertx.eventBus().consumer(Addresses.worker(settings.workerId()), ops::handle).completion()
        .compose(v -> register());
  }

  private Future<Object> register() {
    JsonObject body = new JsonObject()
        .put("workerId", settings.workerId())
        .put("nodeId", node.nodeId())
        .put("hostname", settings.hostname())
        .put("host", settings.host())
        .put("cpus", settings.cpus())
        .put("gpus", new JsonArray(settings.gpus()))
        .put("gpuDevices", settings.gpuDevices());
    Promise<Object> done = Promise.promise();
    attemptRegister(body, System.currentTimeMillis() + REGISTER_DEADLINE_MS, done);
    return done.future();
  }

  /**
   * The first send from a freshly joined node can find no handler while the subscription map is
   * still migrating (DESIGN-NOTES), so "no handlers" is retried for a while; a refusal is final.
   */
  private void attemptRegister(JsonObject body, long deadline, Promise<Object> done) {
    DeliveryOptions opts = new DeliveryOptions().addHeader(Ops.OP, "register").setSendTimeout(10_000);
    vertx.eventBus().request(Addresses.JOB_CENTER, body, opts).map(Message::body).onComplete(ar -> {
      if (ar.succeeded()) {
        done.complete(ar.result());
      } else if (ar.cause() instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS
          && System.currentTimeMillis() < deadline) {
        vertx.setTimer(REGISTER_RETRY_MS, t -> attemptRegister(body, deadline, done));
      } else {
        done.fail(ar.cause());
      }
    });
  }
}
