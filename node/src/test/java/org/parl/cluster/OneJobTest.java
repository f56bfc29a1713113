package org.parl.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.parl.control.ControlCodec;
import org.parl.control.ControlReply.JobStatus;
import org.parl.control.Dispatcher;
import org.parl.control.JobView;
import org.parl.control.WorkerRequest.ReadStatus;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.gateway.Job;

/** A request about one job goes to the job's verticle, and to its worker only when no verticle is there. */
class OneJobTest {

  private static final Job JOB = new Job("job-1", "c-1", "w-1", "my.Actor", 1, List.of(), 0, 0);

  private Vertx vertx;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    ControlCodec.register(vertx.eventBus());
  }

  @AfterEach
  void stop() {
    vertx.close().await();
  }

  /** A receiver that answers every {@link ReadStatus} with the job in {@code state}. */
  private void answering(String address, String state) {
    Dispatcher d = new Dispatcher(address, org.slf4j.LoggerFactory.getLogger(OneJobTest.class))
        .on(ReadStatus.class, r -> Future.succeededFuture(new JobStatus(new JobView(JOB, "w1-1", 1, state, 0, 0, null, 0, null))));
    vertx.eventBus().consumer(address, d::handle).completion().await();
  }

  private JobStatus ask() throws Exception {
    return OneJob.request(vertx, "w-1", "job-1", new ReadStatus("job-1"), 5_000).await(10, TimeUnit.SECONDS);
  }

  @Test
  void theJobsVerticleAnswersWhenItIsThere() throws Exception {
    answering(Addresses.worker("w-1"), "from the worker");
    answering(Addresses.job("job-1"), "from the verticle");
    assertEquals("from the verticle", ask().job().state());
  }

  @Test
  void itsWorkerAnswersWhenTheJobHasNoVerticle() throws Exception {
    answering(Addresses.worker("w-1"), "from the worker");
    assertEquals("from the worker", ask().job().state());
  }

  @Test
  void aVerticlesRefusalIsNotAskedAgainOfTheWorker() {
    answering(Addresses.worker("w-1"), "from the worker");
    vertx.eventBus().consumer(Addresses.job("job-1"), m -> m.fail(ErrorKind.NOT_FOUND.code(), "ended")).completion().await();
    Exception e = assertThrows(Exception.class, this::ask);
    assertEquals(ErrorKind.NOT_FOUND.code(), assertInstanceOf(ReplyException.class, e).failureCode());
  }
}
