package org.parl.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.parl.ActorLostException;
import org.parl.ParlException;
import org.parl.internal.resources.ResourceRequest;
import org.parl.internal.wire.gateway.GatewayReply;
import org.parl.internal.wire.gateway.Job;
import org.parl.internal.wire.gateway.JobPlacement;

/**
 * The opening of an actor against the end of its job: a job the master says ended before its
 * actor could be reached fails the create as a lost actor, saying why, not as an unreachable job.
 */
class ActorOpeningTest {

  @TempDir
  Path tmp;

  private Vertx vertx;
  private final Map<String, RemoteActorImpl<?>> actors = new ConcurrentHashMap<>();
  private ActorOpening openings;
  private int closedPort;

  /** An actor class to open. */
  public static final class Counter implements Runnable {
    @Override
    public void run() {}
  }

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    openings = new ActorOpening(vertx, false, "c-1", new SharedOffer(false, tmp), actors, () -> null);
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = s.getLocalPort(); // nothing listens there any more
    }
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  private RemoteActorImpl<Runnable> open(String jobId) throws Exception {
    ActorBuilderImpl.Spec<Runnable> spec = new ActorBuilderImpl.Spec<>(Runnable.class, Counter.class, Counter.class.getConstructor(),
        new Object[0], new ResourceRequest(1, 0, 0, 0, null, 0), false, false, 0, false, null, 0);
    JobPlacement placement = new JobPlacement(new Job(jobId, "c-1", "w-1", Counter.class.getName(), 1, List.of(), 0, 0),
        "127.0.0.1", closedPort, "ab".repeat(32), "cd".repeat(32), 4242, "w1-1");
    return openings.open(spec, placement, CodeBundle.build(List.of(), List.of()), new byte[0], conn -> {
      throw new AssertionError("no actor is made on a job that cannot be reached");
    });
  }

  @Test
  void aJobThatCannotBeReachedFailsTheCreate() {
    ParlException e = assertThrows(ParlException.class, () -> open("job-1"));
    assertFalse(e instanceof ActorLostException, e.toString());
    assertTrue(e.getMessage().startsWith("cannot reach the job process of Counter at 127.0.0.1:" + closedPort), e.getMessage());
  }

  @Test
  void aJobThatEndedBeforeItsActorWasReachedLosesTheActorSayingWhy() {
    openings.endedBeforeOpen(new GatewayReply.JobEnded("job-1", "w-1", "the job process exited with status 1", false));
    ActorLostException e = assertThrows(ActorLostException.class, () -> open("job-1"));
    assertEquals("the actor's job job-1 ended before it could be used: the job process exited with status 1. "
        + "Create a new actor to go on", e.getMessage());
    assertEquals(Set.of(), openings.underWay());
    assertTrue(actors.isEmpty());
  }
}
