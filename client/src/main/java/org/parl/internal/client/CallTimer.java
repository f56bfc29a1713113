package org.parl.internal.client;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.function.Supplier;
import org.parl.ParlException;

/** Bounds the wait for an answer: the answer, or a failure once the time is over (the late answer is then dropped). */
final class CallTimer {

  private CallTimer() {}

  /**
   * {@code answer}, or a future that fails with {@code late.get()} when {@code answer} is not complete
   * within {@code timeoutMs} (0 or less: no limit). Completes on the caller's Vert.x context when it
   * has one, as the answer itself does.
   */
  static <R> Future<R> within(Vertx vertx, Future<R> answer, long timeoutMs, Supplier<? extends ParlException> late) {
    if (timeoutMs <= 0 || answer.isComplete()) {
      return answer;
    }
    Context caller = Context.isOnVertxThread() ? Vertx.currentContext() : null;
    Promise<R> bounded = Promise.promise();
    long timer = vertx.setTimer(timeoutMs, t -> {
      if (caller != null) {
        caller.runOnContext(v -> bounded.tryFail(late.get()));
      } else {
        bounded.tryFail(late.get());
      }
    });
    answer.onComplete(ar -> {
      vertx.cancelTimer(timer);
      if (ar.succeeded()) {
        bounded.tryComplete(ar.result());
      } else {
        bounded.tryFail(ar.cause());
      }
    });
    return bounded.future();
  }
}
