package org.parl.control;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.parl.internal.wire.BadMessageException;
import org.parl.internal.wire.ErrorKind;
import org.slf4j.Logger;

/**
 * Dispatches the requests a verticle receives to its handlers by the request's record type, so
 * that a consumer is a table of typed operations: {@code on(Allocate.class, this::allocate)}.
 *
 * <p>Whatever arrives (a body that does not decode, a value of another type, a request this
 * receiver does not handle, a handler that throws) is answered with a failure that says what was
 * wrong; a message without a reply address is dropped with one log line. The receiver keeps
 * running either way.
 */
public final class Dispatcher {

  private final String name;
  private final Logger log;
  private final Map<Class<?>, Function<Object, Future<? extends ControlReply>>> handlers = new LinkedHashMap<>();

  /** @param name the receiver as its senders' error messages name it ("the JobCenter") */
  public Dispatcher(String name, Logger log) {
    this.name = name;
    this.log = log;
  }

  /** Registers the handler of one request type; its future's value is the reply. */
  public <M extends Request<R>, R extends ControlReply> Dispatcher on(Class<M> type, Function<M, Future<R>> handler) {
    handlers.put(type, body -> handler.apply(type.cast(body)));
    return this;
  }

  /** The request types handled, in registration order. */
  public List<String> handled() {
    return handlers.keySet().stream().map(Class::getSimpleName).toList();
  }

  public void handle(Message<Object> msg) {
    Future<? extends ControlReply> result;
    try {
      Object body = msg.body(); // a clustered body is decoded here, and checked
      Function<Object, Future<? extends ControlReply>> h = body == null ? null : handlers.get(body.getClass());
      if (h == null) {
        throw new BadMessageException(unhandled(body));
      }
      result = h.apply(body);
    } catch (BadMessageException e) {
      result = Failures.future(ErrorKind.INVALID, e.getMessage());
    } catch (RuntimeException e) {
      log.error("{} failed on a message: {}", name, e.toString(), e);
      result = Failures.future(ErrorKind.INTERNAL, name + " failed: " + e);
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
        msg.fail(Failures.kindOf(ar.cause()).code(), ar.cause().getMessage());
      }
    });
  }

  private String unhandled(Object body) {
    if (body instanceof ControlMessage m) {
      return name + " does not handle " + m.getClass().getSimpleName() + "; it handles " + handled();
    }
    String what = body == null ? "an empty body" : body instanceof Buffer ? "a Buffer" : "a " + body.getClass().getSimpleName();
    return name + " takes typed control messages (event-bus codec " + ControlCodec.NAME + "), not " + what;
  }
}
