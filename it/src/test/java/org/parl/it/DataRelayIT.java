package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ProxySelector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.ActorLostException;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.internal.wire.IntegrityException;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;

/**
 * A relay between a real client and a real job on 127.0.0.1 ({@link SocksRelay}) lets the
 * handshake through, then injects a call forged in clear, replays a call the client really made, or
 * alters one: each is refused (README, "Security"): the job closes the connection with one log
 * line, the client's actor is lost, and the forged or replayed code never runs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DataRelayIT {

  private static final Duration WAIT = Duration.ofSeconds(30);

  private TestCluster cluster;
  private ParlClient parl;
  private SocksRelay relay;
  private ProxySelector direct;

  @BeforeAll
  void start() throws Exception {
    cluster = TestCluster.start(0, "--cpus", "2");
    parl = cluster.connect();
  }

  @AfterAll
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @BeforeEach
  void relayTheDataPath() throws IOException {
    relay = new SocksRelay();
    direct = ProxySelector.getDefault();
    ProxySelector.setDefault(relay.selector());
  }

  @AfterEach
  void removeTheRelay() throws Exception {
    ProxySelector.setDefault(direct);
    relay.close();
    cluster.awaitIdle();
  }

  /** An actor whose data connection goes through the relay, and has served a call through it. */
  private RemoteActor<Counter> relayedActor() {
    RemoteActor<Counter> actor = parl.actor(Counter.class, CounterImpl.class).createAsync().await();
    assertEquals(1, relay.links().size(), "the data connection goes through the relay");
    assertEquals(1, actor.call(c -> c.add(1)).await(), "the relay is transparent until it does something");
    return actor;
  }

  /** The next call fails: the job closed the connection. */
  private static void assertLost(RemoteActor<Counter> actor) {
    assertThrows(ActorLostException.class, () -> actor.call(Counter::value).await(WAIT.toSeconds(), TimeUnit.SECONDS));
    actor.close();
  }

  @Test
  void aCallForgedInClearAfterTheHandshakeIsRefusedAndNeverRuns() throws Exception {
    int failuresBefore = integrityLines();
    RemoteActor<Counter> actor = relayedActor();
    Path marker = cluster.marker("forged");
    relay.links().get(0).inject(SocksRelay.forgedCall(marker.toString()));
    assertLost(actor);
    awaitIntegrityLines(failuresBefore + 1);
    assertFalse(Files.exists(marker), "the forged call never ran");
  }

  @Test
  void aReplayedCallIsRefusedAndDoesNotRunAgain() throws Exception {
    int failuresBefore = integrityLines();
    RemoteActor<Counter> actor = relayedActor();
    SocksRelay.Link link = relay.links().get(0);
    Path marker = cluster.marker("replayed");
    link.mark();
    actor.run(c -> c.markThenSleep(marker.toString(), 0)).await(WAIT.toSeconds(), TimeUnit.SECONDS);
    byte[] call = link.sinceMark();
    assertTrue(Files.exists(marker), "the client's own call ran");
    Files.delete(marker);
    link.inject(call);
    assertLost(actor);
    awaitIntegrityLines(failuresBefore + 1);
    assertFalse(Files.exists(marker), "the replayed call did not run again");
  }

  @Test
  void anAlteredCallIsRefusedAndNeverRuns() throws Exception {
    int failuresBefore = integrityLines();
    RemoteActor<Counter> actor = relayedActor();
    Path marker = cluster.marker("altered");
    relay.links().get(0).alterNext();
    assertThrows(ActorLostException.class,
        () -> actor.run(c -> c.markThenSleep(marker.toString(), 0)).await(WAIT.toSeconds(), TimeUnit.SECONDS));
    actor.close();
    awaitIntegrityLines(failuresBefore + 1);
    assertFalse(Files.exists(marker), "the altered call never ran");
  }

  private void awaitIntegrityLines(int n) throws Exception {
    Await.until("a job's log line about the failed check", WAIT, () -> integrityLines() >= n);
    assertEquals(n, integrityLines(), "one line per refused connection");
  }

  /** Lines in the jobs' logs that say a frame failed its integrity check. */
  private int integrityLines() throws IOException {
    int n = 0;
    try (Stream<Path> files = Files.walk(cluster.home.resolve("workers"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".log")).toList()) {
        n += (int) Files.readAllLines(f).stream().filter(l -> l.contains(IntegrityException.FAILED)).count();
      }
    }
    return n;
  }
}
