package org.parl.monitor;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import java.util.List;
import java.util.function.Supplier;
import org.parl.cluster.ClusterNode;
import org.parl.ha.Masters;
import org.parl.internal.security.ClusterToken;
import org.parl.limits.LimitSettings;
import org.parl.tls.NodeCertificate;
import org.parl.tls.TlsPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The web monitor (docs/contract.md §6): pages from {@code webroot/}, the JSON API, {@code /metrics}, and
 * live updates by Server-Sent Events on {@code /api/events}, over HTTPS ({@link MonitorCertificate}:
 * one the cluster's CA issued, or the operator's own) and only for holders of the cluster token
 * ({@link MonitorAuth}). It reads what the cluster publishes every {@value #POLL_MS} ms, and at once
 * when a member leaves, and pushes the view to open pages when it changed. Runs on any member: the master, or a stand-alone lite member.
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
  private final MonitorCertificate certificate;
  private final Supplier<Masters> masters;
  private volatile String url;
  private HttpServer server;
  private EventStream events;
  private ClusterWatch watch;
  private CertificateWatch reloads;

  /**
   * @param host the address to bind and to put in links
   * @param port the port to listen on; 0 picks a free one (see {@link #url()})
   * @param anyPortIfTaken whether a taken {@code port} (a default, not one the user chose) may be
   *     replaced by a free one
   * @param token what every request must prove it holds
   * @param certificate what the monitor presents
   * @param masters the cluster's masters as this node sees them
   */
  public MonitorVerticle(ClusterNode node, String host, int port, boolean anyPortIfTaken, ClusterToken token,
      MonitorCertificate certificate, Supplier<Masters> masters) {
    this.masters = masters;
    this.node = node;
    this.host = host;
    this.port = port;
    this.anyPortIfTaken = anyPortIfTaken;
    this.token = token;
    this.codes = new LoginCodes(token, this::url);
    this.certificate = certificate;
  }

  /** The monitor's URL once started: {@code https://HOST:PORT}. */
  public String url() {
    return url;
  }

  /** A fresh one-time login link, good for {@link LoginCodes#LIFETIME}. */
  public String loginLink() {
    return codes.link();
  }

  /** Who issued the certificate the monitor presents, and its SHA-256 fingerprint. */
  public String certificate() {
    return certificate.describe();
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
        .compose(this::watchCertificate)
        .onSuccess(s -> {
          server = s;
          url = "https://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + s.actualPort();
          vertx.setPeriodic(POLL_MS, t -> poll());
          vertx.setPeriodic(HEARTBEAT_MS, t -> events.heartbeat());
          log.info("monitor serving {} (certificate {})", url, certificate());
        });
  }

  /**
   * HTTPS with {@code served}: TLS 1.2 or 1.3, AEAD suites only; HTTP/1.1 named in ALPN, by which a
   * parl client given this port for the master's knows at once that it is not the gateway.
   */
  static HttpServerOptions options(NodeCertificate served) {
    HttpServerOptions options = new HttpServerOptions().setSsl(true).setKeyCertOptions(served.keyCertOptions())
        .setUseAlpn(true).setAlpnVersions(List.of(HttpVersion.HTTP_1_1))
        .setEnabledSecureTransportProtocols(TlsPolicy.MONITOR_PROTOCOLS).setIdleTimeout(IDLE_S);
    TlsPolicy.MONITOR_CIPHER_SUITES.forEach(options::addEnabledCipherSuite);
    return options;
  }

  private Future<HttpServer> listen(Router router) {
    HttpServerOptions options = options(certificate.first());
    return vertx.createHttpServer(options).requestHandler(router).listen(port, host)
        .recover(e -> anyPortIfTaken && port != 0
            ? vertx.createHttpServer(options).requestHandler(router).listen(0, host)
            : Future.failedFuture(new IllegalStateException("the monitor cannot listen on " + host + ":" + port
                + " (" + e.getMessage() + "): choose another port", e)));
  }

  /** With the operator's files: reloads them into {@code s} when they change. */
  private Future<HttpServer> watchCertificate(HttpServer s) {
    if (certificate.files().isEmpty()) {
      return Future.succeededFuture(s);
    }
    return vertx.executeBlocking(() -> new CertificateWatch(context, certificate.files().get(), certificate.first(),
            next -> s.updateSSLOptions(options(next).getSslOptions())))
        .map(w -> {
          reloads = w;
          return s;
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
    if (reloads != null) {
      reloads.close();
    }
    if (events != null) {
      events.closeAll();
    }
    return server == null ? Future.succeededFuture() : server.close();
  }
}
