package org.parl.monitor;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.StaticHandler;
import org.parl.cluster.ClusterNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The web monitor (SPEC §6): pages from {@code webroot/}, the JSON API, {@code /metrics}, and
 * live updates by Server-Sent Events on {@code /api/events}. It reads what the cluster publishes
 * every {@value #POLL_MS} ms, and at once when a member leaves, and pushes the view to open pages
 * when it changed. Runs on any member: the master, or a stand-alone lite member.
 */
public final class MonitorVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(MonitorVerticle.class);
  static final long POLL_MS = 500;
  private static final long HEARTBEAT_MS = 15_000;

  private final ClusterNode node;
  private final String host;
  private final int port;
  private volatile String url;
  private HttpServer server;
  private EventStream events;
  private ClusterWatch watch;

  private final boolean anyPortIfTaken;

  /**
   * @param host the address to bind and to put in links
   * @param port the port to listen on; 0 picks a free one (see {@link #url()})
   * @param anyPortIfTaken whether a taken {@code port} (a default, not one the user chose) may be
   *     replaced by a free one
   */
  public MonitorVerticle(ClusterNode node, String host, int port, boolean anyPortIfTaken) {
    this.node = node;
    this.host = host;
    this.port = port;
    this.anyPortIfTaken = anyPortIfTaken;
  }

  /** The monitor's URL once started. */
  public String url() {
    return url;
  }

  @Override
  public Future<?> start() {
    ClusterReader reader = new ClusterReader(vertx, node);
    watch = new ClusterWatch(reader, this::url);
    events = new EventStream("cluster");
    ApiHandlers api = new ApiHandlers(watch, new JobsService(vertx, reader));

    Router router = Router.router(vertx);
    router.route().handler(api::refuseTraversal);
    router.get("/api/cluster").handler(api::cluster);
    router.get("/api/history").handler(api::history);
    router.get("/api/events").handler(events::subscribe);
    router.get("/api/jobs").handler(api::jobsOfClient);
    router.get("/api/jobs/:id/log").handler(api::log);
    router.get("/api/jobs/:id/log/download").handler(api::download);
    router.route("/api/*").handler(api::unknown);
    router.get("/metrics").handler(api::metrics);
    router.route("/webjars/*").handler(StaticHandler.create("META-INF/resources/webjars"));
    router.route("/*").handler(StaticHandler.create("webroot"));

    node.onMemberRemoved((nodeId, role) -> context.runOnContext(v -> poll()));
    return vertx.createHttpServer().requestHandler(router).listen(port, host)
        .recover(e -> anyPortIfTaken && port != 0
            ? vertx.createHttpServer().requestHandler(router).listen(0, host)
            : Future.failedFuture(new IllegalStateException("the monitor cannot listen on " + host + ":" + port
                + " (" + e.getMessage() + "): choose another port", e)))
        .onSuccess(s -> {
          server = s;
          url = "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + s.actualPort();
          vertx.setPeriodic(POLL_MS, t -> poll());
          vertx.setPeriodic(HEARTBEAT_MS, t -> events.heartbeat());
          log.info("monitor serving {}", url);
        });
  }

  /** Reads the cluster and pushes the view to the open pages if it changed. */
  private void poll() {
    watch.refresh()
        .onSuccess(view -> events.publish(view.encode()))
        .onFailure(e -> log.debug("the monitor could not read the cluster: {}", e.getMessage()));
  }

  @Override
  public Future<?> stop() {
    if (events != null) {
      events.closeAll();
    }
    return server == null ? Future.succeededFuture() : server.close();
  }
}
