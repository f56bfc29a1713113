package org.parl.cluster;

import io.vertx.core.Future;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;

/**
 * Dispatches event-bus requests to handlers by their {@code op} header, so that a verticle's
 * consumer is a table of typed operations instead of an if/else chain.
 *
 * <p>Whatever arrives (wrong body type, missing or unknown op, bad fields, a handler that throws)
 * is answered with a failure that says what was wrong; a message without a reply address is
 * dropped with one log line. The receiving node keeps running either way.
 */
public final class Ops {

  public static final String OP = "op";

  private final String name;
  private final Logger log;
  private final Map<String, Function<JsonObject, Future<?>>> handlers = new HashMap<>();

  public Ops(String name, Logger log) {
    this.name = name;
    this.log = log;
  }

  /** Registers the handler of one operation; its future's value is the reply body. */
  public Ops on(String op, Function<JsonObject, Future<?>> handler) {
    handlers.put(op, handler);
    return this;
  }

  public void handle(Message<Object> msg) {
    Future<?> result;
    try {
      String op = msg.headers().get(OP);
      if (op == null) {
        throw new BadMessageException(name + " needs an '" + OP + "' header naming the operation");
      }
      Function<JsonObject, Future<?>> h = handlers.get(op);
      if (h == null) {
        throw new BadMessageException(name + " has no operation '" + op + "'; it knows " + handlers.keySet());
      }
      result = h.apply(Fields.object(msg.body()));
    } catch (BadMessageException e) {
      result = Failure.INVALID.future(e.getMessage());
    } catch (RuntimeException e) {
      log.error("{} failed on a message: {}", name, e.toString(), e);
      result = Failure.INTERNAL.future(name + " failed: " + e);
    }
    result.onComplete(ar -> {
      if (msg.replyAddress() == null) {
        if (ar.failed()) {
          log.warn("{} dropped a message without reply address: {}", name, ar.cause().getMessage());
        }
        return;
      }
      if (ar.succeeded()) {
        msg.reply(ar.result());
      } else {
        Throwable t = ar.cause();
        msg.fail(Failure.of(t).code(), t.getMessage());
      }
    });
  }

  public static Future<JsonObject> ok() {
    return Future.succeededFuture(new JsonObject());
  }
}
