package org.parl.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.parl.ActorLostException;
import org.parl.CallTimeoutException;
import org.parl.GpuFaultException;
import org.parl.RemoteActor;
import org.parl.internal.wire.Frames;
import org.parl.internal.wire.ValueCodec;
import org.parl.internal.wire.gateway.GatewayReply;
import org.parl.internal.wire.gateway.GpuFault;
import org.parl.internal.wire.gateway.Job;
import org.parl.internal.wire.gateway.JobPlacement;

/**
 * Call timeouts and lost actors against a fake job on a real loopback socket that answers only when
 * the test says so, and never closes its end unless told: as a frozen or cut-off host's job would.
 */
class RemoteActorImplTest {

  /** The fake actor's API: methods that return nothing, so any answer payload will do. */
  public interface Work {
    void step();
  }

  private Vertx vertx;
  private FakeJob job;
  private long defaultTimeoutMs;

  private final RemoteActorImpl.Owner owner = new RemoteActorImpl.Owner() {
    @Override
    public Vertx vertx() {
      return vertx;
    }

    @Override
    public Optional<String> lostReason() {
      return Optional.empty();
    }

    @Override
    public long callTimeoutMs() {
      return defaultTimeoutMs;
    }

    @Override
    public void forget(RemoteActorImpl<?> actor) {}
  };

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    job = new FakeJob(false);
  }

  @AfterEach
  void stop() throws Exception {
    job.close();
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  private RemoteActorImpl<Work> actor() throws Exception {
    JobPlacement placement = new JobPlacement(new Job("job-7", "client-1", "w-fake", "FakeWork", 1, List.of(), 0, 0, 0, 0),
        "127.0.0.1", 1, "token", "ab".repeat(32), 0, "slot-0");
    RemoteActorImpl<Work> a = new RemoteActorImpl<>(owner, Work.class, "FakeWork", placement, job.connect(), new ValueCodec());
    a.armReader();
    return a;
  }

  private static Throwable failure(Future<?> f) throws Exception {
    try {
      f.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    }
    throw new AssertionError("succeeded, though it should have failed");
  }

  private static void succeeds(Future<?> f) throws Exception {
    f.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /** A blocking proxy call on its own thread; its outcome (null, or what it threw). */
  private static CompletableFuture<Throwable> blocking(Runnable call) {
    CompletableFuture<Throwable> outcome = new CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        call.run();
        outcome.complete(null);
      } catch (Throwable e) {
        outcome.complete(e);
      }
    }, "blocking-caller");
    t.setDaemon(true);
    t.start();
    return outcome;
  }

  @Test
  void aLateAnswerFailsTheCallWithATimeoutAndTheActorStaysUsable() throws Exception {
    RemoteActorImpl<Work> a = actor();
    long t0 = System.nanoTime();
    Future<Void> slow = a.withTimeout(Duration.ofMillis(300)).run(Work::step);
    Frames.Frame request = job.next();
    Throwable e = failure(slow);
    long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    assertInstanceOf(CallTimeoutException.class, e, String.valueOf(e));
    assertTrue(e.getMessage().contains("Work.step()") && e.getMessage().contains("0.3 s")
        && e.getMessage().contains("stays usable"), e.getMessage());
    assertTrue(tookMs >= 290, "failed after " + tookMs + " ms, before its timeout");

    job.answer(request); // the late answer: dropped quietly
    Future<Void> next = a.run(Work::step);
    job.answer(job.next());
    succeeds(next);
    assertTrue(slow.failed(), "the timed-out call stays failed");
  }

  @Test
  void theClientsDefaultTimeoutAppliesToTheBlockingProxyAndAHandleCanLiftIt() throws Exception {
    defaultTimeoutMs = 300;
    RemoteActorImpl<Work> a = actor();
    CompletableFuture<Throwable> timedOut = blocking(() -> a.proxy().step());
    Frames.Frame request = job.next();
    assertInstanceOf(CallTimeoutException.class, timedOut.get(10, TimeUnit.SECONDS));
    job.answer(request);

    RemoteActor<Work> patient = a.withTimeout(null);
    CompletableFuture<Throwable> waited = blocking(() -> patient.proxy().step());
    Frames.Frame second = job.next();
    job.answer(second);
    assertEquals(null, waited.get(10, TimeUnit.SECONDS), "no timeout on this handle: the call got its answer");
    assertThrows(IllegalArgumentException.class, () -> a.withTimeout(Duration.ZERO));
  }

  @Test
  void anEndedJobFailsPendingAndLaterCallsAtOnceThoughItsSocketStaysOpen() throws Exception {
    RemoteActorImpl<Work> a = actor();
    Future<Void> pending = a.run(Work::step);
    job.next(); // received, never answered, the socket left open
    String cause = "worker w-fake on host-b left the cluster (no heartbeat for 5 s)";
    a.ended(new GatewayReply.JobEnded("job-7", "w-fake", cause, true));

    Throwable e = failure(pending);
    assertInstanceOf(ActorLostException.class, e, String.valueOf(e));
    assertTrue(e.getMessage().contains(cause) && e.getMessage().contains("job-7"), e.getMessage());
    Future<Void> later = a.run(Work::step);
    assertTrue(later.failed() && later.cause() instanceof ActorLostException, "a later call fails at once: " + later);
    assertInstanceOf(ActorLostException.class, failure(a.withTimeout(Duration.ofSeconds(30)).get("count", Integer.class)));
  }

  @Test
  void aJobStoppedForAFaultyGpuFailsCallsWithAGpuFault() throws Exception {
    RemoteActorImpl<Work> a = actor();
    a.ended(new GatewayReply.JobEnded("job-7", "w-fake", "GPU 2 is faulty", true,
        new GpuFault("w-fake", 2, "GPU-2", "uncorrected volatile ECC errors: 2")));
    GpuFaultException e = assertInstanceOf(GpuFaultException.class, failure(a.run(Work::step)));
    assertEquals(2, e.gpu());
    assertTrue(e.getMessage().contains("ECC errors: 2") && e.getMessage().contains("job-7"), e.getMessage());
  }

  @Test
  void aLostActorReleasesACallerBlockedReadingItsOwnAnswer() throws Exception {
    RemoteActorImpl<Work> a = actor();
    CompletableFuture<Throwable> blocked = blocking(() -> a.proxy().step());
    job.next(); // the caller now reads its own answer from a socket that stays open
    a.lose("the connection to the master at 10.77.0.2:8010 closed");
    Throwable e = blocked.get(10, TimeUnit.SECONDS);
    assertInstanceOf(ActorLostException.class, e, String.valueOf(e));
    assertTrue(e.getMessage().contains("master at 10.77.0.2:8010"), e.getMessage());
  }
}
