package org.parl.cluster;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import org.parl.control.ControlBus;
import org.parl.control.ControlReply;
import org.parl.control.Request;

/**
 * Asks something of one job (its status, its log, to stop it): of the job's own verticle on its
 * worker ({@link Addresses#job}), or of its worker ({@link Addresses#worker}) when the job has no
 * verticle there: not yet (its launch is under way, or the cluster has not seen its address yet),
 * or no more (its process is gone; the worker still knows it, from its history).
 */
public final class OneJob {

  private OneJob() {}

  /** The request, with a timeout at each address asked; the worker is asked only when no verticle answers for the job. */
  public static <R extends ControlReply> Future<R> request(Vertx vertx, String workerId, String jobId, Request<R> request,
      long timeoutMs) {
    return ControlBus.request(vertx, Addresses.job(jobId), request, timeoutMs)
        .recover(e -> noHandler(e) ? ControlBus.request(vertx, Addresses.worker(workerId), request, timeoutMs) : Future.failedFuture(e));
  }

  private static boolean noHandler(Throwable e) {
    return e instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS;
  }
}
