package org.parl.monitor;

import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.StaticHandler;

/**
 * The monitor's routes, in order: the login (the only thing open to anyone), the door
 * ({@link MonitorAuth}), then behind it the traversal guard, the API, the event stream,
 * {@code /metrics}, the web jars and the pages.
 */
final class MonitorRoutes {

  /** The token page's form is a few hundred bytes; nothing bigger is read before login. */
  private static final long LOGIN_BODY_LIMIT = 8 * 1024;

  private MonitorRoutes() {}

  static Router create(Vertx vertx, MonitorAuth auth, ApiHandlers api, EventStream events) {
    Router router = Router.router(vertx);
    door(router, auth);
    router.route().handler(api::refuseTraversal);
    router.get("/api/cluster").handler(api::cluster);
    router.get("/api/history").handler(api::history);
    router.get("/api/waiting").handler(api::waiting);
    router.post("/api/drain").handler(BodyHandler.create(false).setBodyLimit(ApiParams.DRAIN_BODY_LIMIT)).handler(api::drain);
    router.get("/api/events").handler(events::subscribe);
    router.get("/api/jobs").handler(api::jobsOfClient);
    router.get("/api/jobs/:id/log").handler(api::log);
    router.get("/api/jobs/:id/log/download").handler(api::download);
    router.route("/api/*").handler(api::unknown);
    router.get("/metrics").handler(api::metrics);
    router.route("/webjars/*").handler(StaticHandler.create("META-INF/resources/webjars"));
    router.route("/*").handler(StaticHandler.create("webroot"));
    return router;
  }

  /** The login routes, then the door that every later route of {@code router} sits behind. */
  static void door(Router router, MonitorAuth auth) {
    router.route().handler(MonitorRoutes::hardenHeaders);
    router.get("/login").handler(auth::loginWithCode);
    router.post("/login").handler(BodyHandler.create(false).setBodyLimit(LOGIN_BODY_LIMIT)).handler(auth::loginWithToken);
    router.route().handler(auth::authenticate);
  }

  /**
   * On every answer: no framing by other sites (clickjacking of the token page), no guessing of
   * content types, and no {@code Referer}, which could carry a login code elsewhere.
   */
  private static void hardenHeaders(RoutingContext ctx) {
    ctx.response()
        .putHeader("X-Frame-Options", "DENY")
        .putHeader("X-Content-Type-Options", "nosniff")
        .putHeader("Referrer-Policy", "no-referrer");
    ctx.next();
  }
}
