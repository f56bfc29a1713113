package org.parl.control;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import org.parl.internal.wire.BadMessageException;

/**
 * Sends control messages: a request always with a timeout, its reply checked to be of the type
 * the request declares; events to the verticles of this node only.
 */
public final class ControlBus {

  private static final DeliveryOptions LOCAL = new DeliveryOptions().setLocalOnly(true);

  private ControlBus() {}

  /** A request to any node; it fails after {@code timeoutMs}, or sooner if its receiver fails it. */
  public static <R extends ControlReply> Future<R> request(Vertx vertx, String address, Request<R> request, long timeoutMs) {
    return request(vertx, address, request, timeoutMs, false);
  }

  /**
   * @param localOnly true when the receiver runs in this process: the event bus then skips the
   *     cluster-wide lookup of the address
   */
  public static <R extends ControlReply> Future<R> request(Vertx vertx, String address, Request<R> request, long timeoutMs,
      boolean localOnly) {
    Class<R> type = ReplyTypes.of(request);
    DeliveryOptions options = new DeliveryOptions().setSendTimeout(timeoutMs).setLocalOnly(localOnly);
    return vertx.eventBus().request(address, request, options).map(reply -> {
      Object body = reply.body(); // decoded here: a bad reply fails the future with a BadMessageException
      if (!type.isInstance(body)) {
        throw new BadMessageException("expected " + type.getSimpleName() + " from " + address + ", got "
            + (body == null ? "nothing" : body.getClass().getSimpleName()));
      }
      return type.cast(body);
    });
  }

  /** Tells every consumer of {@code address} in the cluster. */
  public static void publish(Vertx vertx, String address, LocalEvent event) {
    vertx.eventBus().publish(address, event);
  }

  /** Tells every consumer of {@code address} in this node. */
  public static void publishLocal(Vertx vertx, String address, LocalEvent event) {
    vertx.eventBus().publish(address, event, LOCAL);
  }
}
