package org.parl.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.parl.cluster.Addresses;
import org.parl.control.ControlBus;
import org.parl.control.ControlCodec;
import org.parl.control.ControlReply.Done;
import org.parl.control.ControlReply.JobLog;
import org.parl.control.ControlReply.JobStatus;
import org.parl.control.WorkerRequest.DownloadLog;
import org.parl.control.WorkerRequest.KillJob;
import org.parl.control.WorkerRequest.ListJobs;
import org.parl.control.WorkerRequest.ReadLog;
import org.parl.control.WorkerRequest.ReadStatus;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.JobControl;
import org.parl.internal.wire.gateway.Job;

/**
 * A job process: the states it goes through as it is told what happened, and what its verticle
 * answers on its job's address (status, log, kill), refusing what is not about its job.
 */
class JobVerticleTest {

  private static final String TOKEN = "cd".repeat(32);

  @TempDir
  Path tmp;

  private Vertx vertx;
  /** The worker's context, where the verticle's state lives. */
  private Context home;
  private JobProcess p;
  private JobVerticle v;

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    ControlCodec.register(vertx.eventBus());
    home = vertx.getOrCreateContext();
    Files.writeString(tmp.resolve("w1-1.log"), "one\ntwo\nthree\n");
    p = new JobProcess("w1-1", List.of(), 0, false, tmp.resolve("w1-1.log"), tmp.resolve("w1-1"));
    v = p.verticle();
    onHome(() -> v.deployFrom(home)).await(10, TimeUnit.SECONDS);
    Process process = new ProcessBuilder("sleep", "60").start();
    onHome(() -> {
      p.started(process, null, null);
      p.becameReady(null, null, new JobControl.Ready("w1-1", process.pid(), 4242, TOKEN, TOKEN));
      return null;
    });
  }

  @AfterEach
  void stop() throws Exception {
    if (p.process() != null) {
      p.process().destroyForcibly();
    }
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  /** Runs {@code work} on the worker's context, as the worker does, and waits for it. */
  private <T> T onHome(Callable<T> work) throws Exception {
    CompletableFuture<T> done = new CompletableFuture<>();
    home.runOnContext(x -> {
      try {
        done.complete(work.call());
      } catch (Exception | Error e) {
        done.completeExceptionally(e);
      }
    });
    return done.get(10, TimeUnit.SECONDS);
  }

  private static Job job(String id) {
    return new Job(id, "c-1", "w-1", "my.Actor", 1, List.of(), 0, 0);
  }

  private ReplyException refusal(Future<?> answer) {
    Throwable e = assertThrows(Exception.class, () -> answer.await(10, TimeUnit.SECONDS));
    return assertInstanceOf(ReplyException.class, e);
  }

  @Test
  void itsStatesFollowWhatHappensToTheProcess() throws Exception {
    assertEquals(JobProcess.State.IDLE, p.state());
    assertEquals(4242, p.lastReady().port());
    assertSame(p, p.whenReady().result());
    onHome(() -> {
      p.placed(job("job-1"));
      p.assigned();
      p.ponged(7);
      return null;
    });
    assertEquals(JobProcess.State.ASSIGNED, p.state());
    assertEquals(7, p.calls());
    JobProcess next = onHome(() -> {
      p.released(9);
      return p.takenBack("w1-2", tmp.resolve("w1-2.log"));
    });
    assertEquals(JobProcess.State.ENDED, p.state());
    assertEquals("the actor was closed", p.endCause());
    assertEquals(9, p.calls());
    assertEquals(JobProcess.State.RECYCLING, next.state());
    onHome(() -> {
      next.ponged(3);
      return null;
    });
    assertEquals(0, next.calls(), "a recycling process's pongs still count its previous actor's calls");
    assertSame(p, onHome(() -> next.takePendingEnd()), "its previous life's end waits for its check");
    assertNull(onHome(() -> next.takePendingEnd()), "and is reported once");
    onHome(() -> {
      next.readyAgain(new JobControl.Ready("w1-1", next.pid(), 4343, TOKEN, TOKEN));
      return null;
    });
    assertEquals(JobProcess.State.IDLE, next.state());
    assertEquals(4343, next.lastReady().port());
    onHome(() -> {
      next.saidStopping("x".repeat(ControlServer.MAX_CAUSE + 10));
      next.exited();
      return null;
    });
    assertEquals(JobProcess.State.ENDED, next.state());
    assertTrue(next.exitedItself());
    assertEquals(ControlServer.MAX_CAUSE + 3, next.stopCause().length(), "a long cause is cut");
    assertTrue(onHome(() -> next.ended(1)), "a non-zero status is abnormal");
    assertEquals(next.stopCause(), next.endCause());
    assertTrue(next.whenReady().succeeded(), "a process that was ready stays so");
  }

  @Test
  void aProcessThatNeverStartedEndsWithWhy() throws Exception {
    JobProcess q = new JobProcess("w1-3", List.of(), 0, false, tmp.resolve("w1-3.log"), tmp.resolve("w1-3"));
    onHome(() -> {
      q.failedToStart("no java");
      return null;
    });
    assertEquals(JobProcess.State.ENDED, q.state());
    assertEquals("could not start a job process: no java", q.endCause());
    assertTrue(q.whenReady().failed());
  }

  @Test
  void aProcessKilledWhileItStartedIsKilledOnceStarted() throws Exception {
    JobProcess q = new JobProcess("w1-4", List.of(), 0, false, tmp.resolve("w1-4.log"), tmp.resolve("w1-4"));
    Process process = new ProcessBuilder("sleep", "60").start();
    onHome(() -> {
      q.verticle().deployFrom(home);
      q.kill("stopped by its client");
      q.started(process, null, null);
      return null;
    });
    assertTrue(process.waitFor(10, TimeUnit.SECONDS), "killed");
    assertEquals("stopped by its client", q.killCause());
  }

  @Test
  void itsAddressAnswersItsJobsStatusAndLog() throws Exception {
    onHome(() -> {
      p.placed(job("job-1"));
      p.assigned();
      return null;
    });
    String at = Addresses.job("job-1");
    JobStatus status = ControlBus.request(vertx, at, new ReadStatus("job-1"), 5_000).await(10, TimeUnit.SECONDS);
    assertEquals("job-1", status.job().job().jobId());
    assertEquals("assigned", status.job().state());
    assertEquals(p.pid(), status.job().pid());
    assertNull(status.job().endedAt());
    JobLog tail = ControlBus.request(vertx, at, new ReadLog("job-1", 2), 5_000).await(10, TimeUnit.SECONDS);
    assertEquals("two\nthree\n", tail.log());
    JobLog whole = ControlBus.request(vertx, at, new DownloadLog("job-1"), 5_000).await(10, TimeUnit.SECONDS);
    assertEquals("one\ntwo\nthree\n", whole.log());
  }

  @Test
  void itsAddressKillsItsJobOnce() throws Exception {
    onHome(() -> {
      p.placed(job("job-1"));
      return null;
    });
    String at = Addresses.job("job-1");
    assertInstanceOf(Done.class, ControlBus.request(vertx, at, new KillJob("job-1", "stopped by its client"), 5_000)
        .await(10, TimeUnit.SECONDS));
    assertTrue(p.process().waitFor(10, TimeUnit.SECONDS), "its process was killed");
    assertEquals("stopped by its client", p.killCause());
    onHome(() -> {
      p.exited();
      return p.ended(p.process().exitValue());
    });
    assertEquals("stopped by its client", p.endCause());
    ReplyException ended = refusal(ControlBus.request(vertx, at, new KillJob("job-1", "again"), 5_000));
    assertEquals(ErrorKind.NOT_FOUND.code(), ended.failureCode(), ended.getMessage());
    assertEquals("no job job-1 runs on worker w-1 any more", ended.getMessage());
  }

  @Test
  void whatIsNotAboutItsJobIsRefusedSayingWhy() throws Exception {
    onHome(() -> {
      p.placed(job("job-1"));
      return null;
    });
    String at = Addresses.job("job-1");
    ReplyException other = refusal(ControlBus.request(vertx, at, new KillJob("job-2", "forged"), 5_000));
    assertEquals(ErrorKind.INVALID.code(), other.failureCode());
    assertTrue(other.getMessage().contains("answers about that job only, not job-2"), other.getMessage());
    assertNull(p.killCause(), "nothing was killed");
    ReplyException unhandled = refusal(ControlBus.request(vertx, at, new ListJobs(), 5_000));
    assertEquals(ErrorKind.INVALID.code(), unhandled.failureCode());
    assertTrue(unhandled.getMessage().contains("does not handle ListJobs"), unhandled.getMessage());
    ReplyException untyped = refusal(vertx.eventBus().request(at, new JsonObject().put("type", "KillJob").put("jobId", "job-1"),
        new DeliveryOptions().setSendTimeout(5_000)));
    assertEquals(ErrorKind.INVALID.code(), untyped.failureCode());
    assertTrue(untyped.getMessage().contains("takes typed control messages"), untyped.getMessage());
    assertFalse(p.process().waitFor(100, TimeUnit.MILLISECONDS), "its process still runs");
  }

  @Test
  void itsAddressGoesWhenItsLifeIsOver() throws Exception {
    onHome(() -> {
      p.placed(job("job-1"));
      return null;
    });
    String at = Addresses.job("job-1");
    assertEquals(1, vertx.deploymentIDs().size());
    ControlBus.request(vertx, at, new ReadStatus("job-1"), 5_000).await(10, TimeUnit.SECONDS);
    onHome(() -> {
      p.kill("stopped by its client");
      p.exited();
      p.ended(137);
      return v.gone();
    }).await(10, TimeUnit.SECONDS);
    assertTrue(vertx.deploymentIDs().isEmpty(), "undeployed");
    ReplyException gone = refusal(ControlBus.request(vertx, at, new ReadStatus("job-1"), 5_000));
    assertEquals(ReplyFailure.NO_HANDLERS, gone.failureType());
    assertEquals("ended", v.view().state(), "its last state stays readable in the worker's history");
  }
}
