package org.parl.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.parl.cluster.Addresses;
import org.parl.control.ControlCodec;
import org.parl.control.ControlReply.Done;
import org.parl.control.ControlReply.Granted;
import org.parl.control.ControlReply.Launched;
import org.parl.control.Dispatcher;
import org.parl.control.JobCenterRequest.Allocate;
import org.parl.control.JobCenterRequest.EndJob;
import org.parl.control.WorkerRequest.Launch;
import org.parl.ha.MasterRecord;
import org.parl.ha.Masters;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.gateway.Job;
import org.parl.internal.wire.gateway.JobPlacement;
import org.slf4j.LoggerFactory;

/** The gateway's placing: the JobCenter's launch goes to the worker as it is, and the worker's answer is checked. */
class PlacerTest {

  private static final Job JOB = new Job("job-7", "c-1", "w-a", "my.Actor", 0, List.of(1), 0, 0);
  private static final Masters MASTERS = new Masters(List.of(new MasterRecord("m-1", "127.0.0.1:1", null)));

  private Vertx vertx;
  /** The release the JobCenter received, if any. */
  private final Promise<EndJob> released = Promise.promise();
  private final List<Launch> launches = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    ControlCodec.register(vertx.eventBus());
    Dispatcher jobCenter = new Dispatcher("a test JobCenter", LoggerFactory.getLogger(PlacerTest.class))
        .on(Allocate.class, r -> Future.succeededFuture(new Granted(new Launch(JOB, "m-1"), "node-w")))
        .on(EndJob.class, r -> {
          released.tryComplete(r);
          return Future.succeededFuture(new Done());
        });
    vertx.eventBus().consumer(Addresses.jobCenter("m-1"), jobCenter::handle).completion().await();
  }

  @AfterEach
  void stop() {
    vertx.close().await();
  }

  /** A worker that answers every launch with a placement of {@code job}. */
  private void worker(Job job) {
    Dispatcher d = new Dispatcher("a test worker", LoggerFactory.getLogger(PlacerTest.class)).on(Launch.class, r -> {
      launches.add(r);
      return Future.succeededFuture(new Launched(new JobPlacement(job, "127.0.0.1", 40_000, "secret", "ef".repeat(32), 42, "w-a-1")));
    });
    vertx.eventBus().consumer(Addresses.worker("w-a"), d::handle).completion().await();
  }

  private JobPlacement place() throws Exception {
    Promise<JobPlacement> placed = Promise.promise();
    vertx.runOnContext(v -> new Placer(vertx, "node-g", () -> MASTERS)
        .place(new Allocate("c-1", 0, 1, 0, 5_000, "my.Actor", "m-1")).onComplete(placed));
    return placed.future().await(10, TimeUnit.SECONDS);
  }

  @Test
  void theWorkersPlacementOfTheGrantedJobIsTheAnswer() throws Exception {
    worker(JOB);
    JobPlacement p = place();
    assertEquals(JOB, p.job());
    assertEquals(40_000, p.port());
    assertEquals(List.of(new Launch(JOB, "m-1")), launches, "the JobCenter's launch, as it made it");
    assertFalse(released.future().isComplete(), "nothing is released");
  }

  @Test
  void aPlacementOfAnotherJobFailsTheCreateAndReleasesTheGrant() throws Exception {
    worker(new Job("job-8", "c-other", "w-a", "my.Actor", 0, List.of(1), 0, 0));
    Exception e = assertThrows(Exception.class, this::place);
    ReplyException r = assertInstanceOf(ReplyException.class, e);
    assertEquals(ErrorKind.INTERNAL.code(), r.failureCode());
    assertEquals("worker w-a answered the launch of job job-7 with a placement of another job (job-8)", r.getMessage());
    EndJob release = released.future().await(10, TimeUnit.SECONDS);
    assertEquals("job-7", release.jobId(), "its resources go back");
  }
}
