package org.parl.ha;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.internal.VertxInternal;
import java.util.Optional;
import java.util.function.Supplier;
import org.parl.cluster.Addresses;
import org.parl.control.ControlBus;
import org.parl.control.ControlReply;
import org.parl.control.Request;

/**
 * Requests to the active master's JobCenter ({@link Addresses#jobCenter(String)}). During a
 * takeover (docs/contract.md §10) there is none for a moment: while no master is active, or the new one's
 * JobCenter is not registered yet ("no handlers"), the request is tried again until its own time is up.
 */
public final class JobCenterCalls {

  private static final long RETRY_MS = 200;

  private JobCenterCalls() {}

  /** The request, failing after {@code timeoutMs} in all. */
  public static <R extends ControlReply> Future<R> request(Vertx vertx, Supplier<Masters> masters, Request<R> request,
      long timeoutMs) {
    return request(vertx, masters, request, timeoutMs, timeoutMs);
  }

  /**
   * The request, each try waiting at most {@code attemptMs} for an answer, failing after
   * {@code timeoutMs} in all; an answer that the JobCenter failed is final.
   */
  public static <R extends ControlReply> Future<R> request(Vertx vertx, Supplier<Masters> masters, Request<R> request,
      long timeoutMs, long attemptMs) {
    Promise<R> result = Promise.promise();
    attempt(vertx, masters, request, System.currentTimeMillis() + timeoutMs, attemptMs, result);
    return result.future();
  }

  private static <R extends ControlReply> void attempt(Vertx vertx, Supplier<Masters> masters, Request<R> request,
      long deadline, long attemptMs, Promise<R> result) {
    long left = deadline - System.currentTimeMillis();
    Optional<MasterRecord> active = masters.get().active();
    if (active.isEmpty()) {
      retryOr(vertx, masters, request, deadline, attemptMs, result, new ReplyException(ReplyFailure.NO_HANDLERS,
          "no master is active: the JobCenter cannot be reached"));
      return;
    }
    String memberId = active.get().memberId();
    ControlBus.request(vertx, Addresses.jobCenter(memberId), request, Math.max(1, Math.min(left, attemptMs)),
        inThisProcess(vertx, memberId))
        .onComplete(ar -> {
          if (ar.succeeded() || !retried(ar.cause())) {
            result.handle(ar);
          } else {
            retryOr(vertx, masters, request, deadline, attemptMs, result, ar.cause());
          }
        });
  }

  private static <R extends ControlReply> void retryOr(Vertx vertx, Supplier<Masters> masters, Request<R> request,
      long deadline, long attemptMs, Promise<R> result, Throwable failure) {
    if (System.currentTimeMillis() + RETRY_MS < deadline) {
      vertx.setTimer(RETRY_MS, t -> attempt(vertx, masters, request, deadline, attemptMs, result));
    } else {
      result.fail(failure);
    }
  }

  /**
   * Whether that master is this process: the request then skips the event bus's cluster-wide lookup
   * of the address (a hop to a worker thread and a Hazelcast read on every request).
   */
  private static boolean inThisProcess(Vertx vertx, String memberId) {
    return vertx instanceof VertxInternal v && v.clusterManager() != null && memberId.equals(v.clusterManager().getNodeId());
  }

  /** A failure worth another try: nobody answered, rather than the JobCenter refusing. */
  private static boolean retried(Throwable e) {
    return e instanceof ReplyException re && re.failureType() != ReplyFailure.RECIPIENT_FAILURE;
  }
}
