package org.parl.monitor;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import java.util.HexFormat;
import java.util.function.Supplier;
import org.parl.cluster.ClusterNode;
import org.parl.ha.Masters;
import org.parl.limits.LimitSettings;
import org.parl.security.ClusterToken;
import org.parl.tls.ClusterKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The web monitor (SPEC §6): pages from {@code webroot/}, the JSON API, {@code /metrics}, and
 * live updates by Server-Sent Events on {@code /api/events}, over HTTPS with the cluster's
 * certificate and only for holders of the cluster token ({@link MonitorAuth}). It reads what the
 * cluster publishes every {@value #POLL_MS} ms, and at once when a member leaves, and pushes the
 * view to open pages when it changed. Runs on any member: the master, or a stand-alone lite member.
 */
public final class MonitorVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(MonitorVerticle.class);
  static final long POLL_MS = 500;
  private static final long HEARTBEAT_MS = 15_000;
  /**
   * A connection on which nothing was read or written for this long (four heartbeats of the event
   * stream) is closed by Vert.x at once, with what is queued on it: how a page dropped for not
   * reading ({@link org.parl.limits.WriteBound}) finally goes.
   */
  static final int IDLE_S = 60;

  private final ClusterNode node;
  private final String host;
  private final int port;
  private final boolean anyPortIfTaken;
  private final ClusterToken token;
  /** This start's login codes: links printed by an earlier start are refused. */
  private final LoginCodes codes;
  private final ClusterKeys keys;
  private final Supplier<Masters> masters;
  private volatile String url;
  private HttpServer server;
  private EventStream events;
  private ClusterWatch watch;

  /**
   * @param host the address to bind and to put in links
   * @param port the port to listen on; 0 picks a free one (see {@link #url()})
   * @param anyPortIfTaken whether a taken {@code port} (a default, not one the user chose) may be
   *     replaced by a free one
   * @param token what every request must prove it holds
   * @param keys the cluster's TLS identity, derived from {@code token}, which the monitor presents
   * @param masters the cluster's masters as this node sees them
   */
  public MonitorVerticle(ClusterNode node, String host, int port, boolean anyPortIfTaken, ClusterToken token,
      ClusterKeys keys, Supplier<Masters> masters) {
    this.masters = masters;
    this.node = node;
    this.host = host;
    this.port = port;
    this.anyPortIfTaken = anyPortIfTaken;
    this.token = token;
    this.keys = keys;
    this.codes = new LoginCodes(token, this::url);
  }

  /** The monitor's URL once started: {@code https://HOST:PORT}. */
  public String url() {
    return url;
  }

  /** A fresh one-time login link, good for {@link LoginCodes#LIFETIME}. */
  public String loginLink() {
    return codes.link();
  }

  /** The SHA-256 fingerprint of the certificate the monitor presents, as browsers show it. */
  public String fingerprint() {
    return HexFormat.ofDelimiter(":").withUpperCase().formatHex(keys.fingerprint());
  }

  @Override
  public Future<?> start() {
    ClusterReader reader = new ClusterReader(vertx, node, masters);
    watch = new ClusterWatch(reader, this::url, masters);
    events = new EventStream(vertx, "cluster");
    ApiHandlers api = new ApiHandlers(watch, new JobsService(vertx, reader));
    vertx.executeBlocking(LimitSettings::load).onSuccess(api::limits);
    node.onMemberRemoved(left -> context.runOnContext(v -> poll()));
    return TokenPage.load(vertx)
        .map(page -> MonitorRoutes.create(vertx,
            new MonitorAuth(token, codes, new Sessions(), page), api, events))
        .compose(this::listen)
        .onSuccess(s -> {
          server = s;
          url = "https://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + s.actualPort();
          vertx.setPeriodic(POLL_MS, t -> poll());
          vertx.setPeriodic(HEARTBEAT_MS, t -> events.heartbeat());
          log.info("monitor serving {} (certificate SHA-256 {})", url, fingerprint());
        });
  }

  private Future<HttpServer> listen(Router router) {
    HttpServerOptions options = new HttpServerOptions().setSsl(true).setKeyCertOptions(keys.keyCert()).setIdleTimeout(IDLE_S);
    return vertx.createHttpServer(options).requestHandler(router).listen(port, host)
        .recover(e -> anyPortIfTaken && port != 0
            ? vertx.createHttpServer(options).requestHandler(router).listen(0, host)
            : Future.failedFuture(new IllegalStateException("the monitor cannot listen on " + host + ":" + port
                + " (" + e.getMessage() + "): choose another port", e)));
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
