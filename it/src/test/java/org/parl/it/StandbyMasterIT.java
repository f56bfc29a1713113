package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;
import org.parl.ActorLostException;
import org.parl.ConnectOptions;
import org.parl.Parl;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.gateway.GatewayCodec;
import org.parl.internal.wire.gateway.GatewayReply;
import org.parl.internal.wire.gateway.GatewayRequest;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;
import org.parl.monitor.MonitorHttp;

/**
 * docs/contract.md §10: standby masters. A master started with {@code --standby} takes over when the active one
 * dies: running actors keep answering, clients given several addresses carry on by themselves,
 * waiting creates are carried over, workers follow, and the pool stays exact. Each test SIGKILLs
 * masters, so each builds its own cluster. Figures (kill to first create, longest call gap) are
 * printed as {@code takeover: ...} lines for BENCHMARKS.md; only generous bounds are asserted.
 */
class StandbyMasterIT {

  /** The bound for a create after the active master's death (the takeover itself is ~5 s at most). */
  private static final Duration CREATE_AFTER_KILL = Duration.ofSeconds(10);

  /**
   * A standby master of {@code cluster}, without a local worker, closed with the cluster (after its
   * test member left); returns its process and gateway address.
   */
  private record Standby(ParlProcess process, String address, String monitor) implements AutoCloseable {
    static Standby start(TestCluster cluster) {
      ParlProcess p = ParlProcess.start(ParlProcess.env(cluster.home), "master", "--standby", "--address", cluster.address,
          "--port", "0", "--no-local-worker");
      try {
        Matcher ready = p.awaitLine("parl master ready: address (\\S+), \\w+ cluster, no local worker; standby of the "
            + "active master at (\\S+)", TestCluster.START);
        String monitor = p.awaitLine("monitor: (https://[^/\\s]+)/login", TestCluster.START).group(1);
        return cluster.closeWith(new Standby(p, ready.group(1), monitor));
      } catch (RuntimeException | AssertionError e) {
        p.close();
        throw e;
      }
    }

    @Override
    public void close() {
      process.close();
    }
  }

  /** Calls every actor in a loop on its own thread: counts calls, keeps failures and the longest gap between answers. */
  private static final class Caller implements AutoCloseable {
    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicLong calls = new AtomicLong();
    final AtomicLong longestGapNanos = new AtomicLong();
    final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    final Thread thread;

    Caller(List<RemoteActor<Counter>> actors) {
      thread = new Thread(() -> {
        long last = System.nanoTime();
        while (!stop.get()) {
          for (RemoteActor<Counter> a : actors) {
            try {
              a.call(c -> c.add(1)).await(30, TimeUnit.SECONDS);
              calls.incrementAndGet();
            } catch (Exception e) {
              failures.add(e);
            }
          }
          long now = System.nanoTime();
          longestGapNanos.accumulateAndGet(now - last, Math::max);
          last = now;
        }
      }, "standby-it-caller");
      thread.start();
    }

    @Override
    public void close() throws InterruptedException {
      stop.set(true);
      thread.join(60_000);
    }
  }

  private static ParlClient connect(TestCluster cluster, String... addresses) {
    return Parl.connect(new ConnectOptions(String.join(",", addresses)).setTokenFile(cluster.tokenFile()));
  }

  /** Creates an actor, trying again while the cluster changes masters (a failed try is printed). */
  private static RemoteActor<Counter> createWithin(ParlClient parl, int gpus, Duration limit) throws Exception {
    return Await.until("an actor created", limit, () -> {
      try {
        return parl.actor(Counter.class, CounterImpl.class).gpus(gpus).createAsync().await(limit.toMillis(), TimeUnit.MILLISECONDS);
      } catch (Exception e) {
        System.out.println("create failed, trying again: " + e);
        return null;
      }
    }, Objects::nonNull);
  }

  private static Set<Integer> gpus(List<RemoteActor<Counter>> actors) {
    Set<Integer> ids = new TreeSet<>();
    actors.forEach(a -> a.gpus().forEach(g -> ids.add(Integer.parseInt(g))));
    return ids;
  }

  private static Set<Integer> ints(JsonArray a) {
    Set<Integer> out = new TreeSet<>();
    a.forEach(o -> out.add(((Number) o).intValue()));
    return out;
  }

  /** The one worker's used GPUs, from the JobCenter (its invariant checked). */
  private static Set<Integer> usedGpus(TestCluster cluster, Set<Integer> expected) throws Exception {
    JsonObject s = cluster.awaitSnapshot(snap -> snap.getJsonArray("workers").size() == 1
        && ints(snap.getJsonArray("workers").getJsonObject(0).getJsonArray("worker_used_gpus")).equals(expected),
        Duration.ofSeconds(20));
    JsonObject w = s.getJsonArray("workers").getJsonObject(0);
    Set<Integer> vacant = ints(w.getJsonArray("worker_vacant_gpus"));
    Set<Integer> all = new TreeSet<>(vacant);
    all.addAll(expected);
    assertEquals(Set.of(0, 1, 2, 3), all, "every GPU id in exactly one list: " + w);
    assertTrue(vacant.stream().noneMatch(expected::contains), "no GPU id both vacant and used: " + w);
    return expected;
  }

  @Test
  void runningActorsAndTheirClientOutliveTheActiveMaster() throws Exception {
    try (TestCluster cluster = TestCluster.start(4, "--no-local-worker")) {
      Standby b = Standby.start(cluster);
      cluster.addWorker(new ParlProcess[1], "--nvidia-smi", cluster.fakeSmi(4).toString());
      cluster.member(); // joined before the kill: it stays, and asks whichever JobCenter is active
      ParlClient parl = connect(cluster, cluster.address, b.address());
      List<RemoteActor<Counter>> held = List.of(createWithin(parl, 1, TestCluster.START), createWithin(parl, 1, TestCluster.START));
      Set<Integer> heldGpus = gpus(held);
      assertEquals(2, heldGpus.size());
      usedGpus(cluster, heldGpus);

      try (Caller caller = new Caller(held)) {
        Await.until("calls running", Duration.ofSeconds(20), caller.calls::get, n -> n > 100);
        long t0 = System.nanoTime();
        cluster.master.kill();
        RemoteActor<Counter> fresh = createWithin(parl, 1, CREATE_AFTER_KILL);
        long createdMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        long callsAtCreate = caller.calls.get();
        Await.until("calls going on after the takeover", Duration.ofSeconds(20), caller.calls::get, n -> n > callsAtCreate + 100);
        caller.close();
        System.out.printf("takeover: kill to first create %d ms, longest call gap %d ms%n", createdMs,
            TimeUnit.NANOSECONDS.toMillis(caller.longestGapNanos.get()));
        assertTrue(caller.failures.isEmpty(), "no call failed during the takeover: " + caller.failures);
        assertTrue(fresh.gpus().stream().map(Integer::parseInt).noneMatch(heldGpus::contains),
            "the new actor's GPUs " + fresh.gpus() + " are none of the survivors' " + heldGpus);
        Set<Integer> all = new TreeSet<>(heldGpus);
        all.addAll(gpus(List.of(fresh)));
        usedGpus(cluster, all);

        JsonObject view = Await.until("the standby's monitor showing the exact pool", Duration.ofSeconds(20),
            () -> new MonitorHttp(b.monitor(), cluster.token()).get("/api/cluster").json(),
            v -> v.getJsonArray("workers").size() == 1
                && ints(v.getJsonArray("workers").getJsonObject(0).getJsonObject("gpus").getJsonArray("used")).equals(all));
        JsonArray masters = view.getJsonArray("masters");
        assertEquals(1, masters.size(), "only the standby is left: " + masters);
        assertEquals(b.address(), masters.getJsonObject(0).getString("address"));
        assertTrue(masters.getJsonObject(0).getBoolean("active"));

        for (RemoteActor<Counter> a : held) {
          assertTrue(a.call(Counter::value).await() > 0, "the survivors still answer");
        }
        fresh.close();
        held.forEach(RemoteActor::close);
        usedGpus(cluster, Set.of());
      }
      parl.close();
    }
  }

  /**
   * Another program with the cluster token cannot take over a client's session, and its jobs, by
   * naming the client's id at another master's gateway; the client itself resumes there after a
   * takeover, with the secret ticket its welcome gave it.
   */
  @Test
  void onlyTheClientThatOpenedASessionResumesIt() throws Exception {
    try (TestCluster cluster = TestCluster.start(4, "--no-local-worker")) {
      Standby b = Standby.start(cluster);
      cluster.addWorker(new ParlProcess[1], "--nvidia-smi", cluster.fakeSmi(4).toString());
      cluster.member(); // joined before the kill: it asks whichever JobCenter is active
      ParlClient parl = connect(cluster, cluster.address, b.address());
      RemoteActor<Counter> actor = createWithin(parl, 1, TestCluster.START);
      ClusterToken token = ClusterToken.of(cluster.token(), "a second program");
      String[][] tries = {
          {null, "client " + parl.id() + "'s session is resumed only with the resume ticket its master gave it, and this "
              + "hello has none"},
          {"00".repeat(32), "the resume ticket for client " + parl.id() + " is wrong: a session is resumed only by the "
              + "program that opened it"}};
      for (String[] t : tries) {
        try (GatewayPeer thief = GatewayPeer.authenticated(b.address(), token)) {
          thief.write(GatewayCodec.encode(new GatewayRequest.ClientHello(1, "thief", "elsewhere", 1L, parl.id(),
              List.of(actor.jobId()), t[0])));
          thief.write(new byte[] {'\n'});
          GatewayReply.Failed refused = (GatewayReply.Failed) thief.reply();
          assertEquals(ErrorKind.UNAUTHENTICATED, refused.kind());
          assertEquals(t[1], refused.message());
        }
      }
      assertEquals(1, actor.call(c -> c.add(1)).await(), "the actor is still its client's");

      cluster.master.kill();
      RemoteActor<Counter> fresh = createWithin(parl, 1, CREATE_AFTER_KILL); // through the standby: resumed there
      assertEquals(2, actor.call(c -> c.add(1)).await(), "the resumed client's actor answers");
      fresh.close();
      actor.close();
      usedGpus(cluster, Set.of());
      parl.close();
    }
  }

  @Test
  void waitingCreatesAreCarriedOverAndAWorkerThatDiesMeanwhileIsDropped() throws Exception {
    try (TestCluster cluster = TestCluster.start(2, "--no-local-worker")) {
      Standby b = Standby.start(cluster);
      ParlProcess[] w1 = new ParlProcess[1];
      ParlProcess[] w2 = new ParlProcess[1];
      String first = cluster.addWorker(w1, "--nvidia-smi", cluster.fakeSmi(2).toString());
      String second = cluster.addWorker(w2, "--nvidia-smi", cluster.fakeSmi(2).toString());
      cluster.member();
      ParlClient parl = connect(cluster, cluster.address, b.address());
      List<RemoteActor<Counter>> actors = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        actors.add(createWithin(parl, 1, TestCluster.START));
      }
      Future<RemoteActor<Counter>> waiting = parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync();
      cluster.awaitWaiting(1);

      w2[0].kill();
      cluster.master.kill();

      List<RemoteActor<Counter>> onFirst = actors.stream().filter(a -> a.workerId().equals(first)).toList();
      List<RemoteActor<Counter>> onSecond = actors.stream().filter(a -> a.workerId().equals(second)).toList();
      assertEquals(2, onFirst.size());
      for (RemoteActor<Counter> a : onSecond) { // its job may answer a last call or two before it notices
        Await.until("an actor of the dead worker lost", Duration.ofSeconds(20), () -> lost(a));
      }
      for (RemoteActor<Counter> a : onFirst) {
        assertEquals(0, a.call(Counter::value).await(20, TimeUnit.SECONDS), "an actor of the live worker answers");
      }
      JsonObject s = cluster.awaitSnapshot(snap -> snap.getJsonArray("workers").size() == 1 && snap.getInteger("waiting") == 1,
          Duration.ofSeconds(30));
      assertEquals(first, s.getJsonArray("workers").getJsonObject(0).getString("id"));
      assertFalse(waiting.isComplete(), "the waiting create still waits, at the new active master");

      onFirst.get(0).close();
      RemoteActor<Counter> served = waiting.await(30, TimeUnit.SECONDS);
      assertEquals(first, served.workerId());
      assertEquals(onFirst.get(0).gpus(), served.gpus(), "it got the GPU that was freed");
      served.close();
      onFirst.get(1).close();
      JsonObject idle = cluster.awaitIdle();
      assertEquals(Set.of(0, 1), ints(idle.getJsonArray("workers").getJsonObject(0).getJsonArray("worker_vacant_gpus")));
      parl.close();
    }
  }

  @Test
  void theClusterSurvivesTwoTakeoversInARowAndAnOldMasterComesBackAsAStandby() throws Exception {
    try (TestCluster cluster = TestCluster.start(0, "--no-local-worker")) {
      Standby b = Standby.start(cluster);
      Standby c = Standby.start(cluster);
      ParlProcess[] worker = new ParlProcess[1];
      cluster.addWorker(worker, "--cpus", "4");
      cluster.member();
      String all = String.join(",", cluster.address, b.address(), c.address());
      ParlClient parl = connect(cluster, cluster.address, b.address(), c.address());
      RemoteActor<Counter> kept = createWithin(parl, 0, TestCluster.START);
      ParlProcess program = cluster.program(ClientProgram.class, all, "1", "0");
      String programJob = program.awaitLine("READY (job-\\d+)=", TestCluster.START).group(1);

      int code = cluster.master.stop(Duration.ofSeconds(30));
      assertTrue(code == 0 || code == 143, "Ctrl-C: the active master hands over and exits, exit " + code);
      RemoteActor<Counter> second = createWithin(parl, 0, CREATE_AFTER_KILL);
      assertEquals(1, kept.call(x -> x.add(1)).await(20, TimeUnit.SECONDS), "no job lost in the hand-over");
      Set<String> jobs = new HashSet<>(List.of(kept.jobId(), second.jobId(), programJob));
      cluster.awaitSnapshot(s -> jobIds(s).equals(jobs), Duration.ofSeconds(30));

      b.process().kill();
      RemoteActor<Counter> third = createWithin(parl, 0, CREATE_AFTER_KILL);
      assertEquals(2, kept.call(x -> x.add(1)).await(20, TimeUnit.SECONDS));
      assertEquals(1, second.call(x -> x.add(1)).await(20, TimeUnit.SECONDS));
      jobs.add(third.jobId());
      cluster.awaitSnapshot(s -> jobIds(s).equals(jobs), Duration.ofSeconds(30));

      program.kill(); // a client that resumed at the third master, then died: its job is stopped
      jobs.remove(programJob);
      cluster.awaitSnapshot(s -> jobIds(s).equals(jobs), Duration.ofSeconds(30));

      try (ParlProcess again = ParlProcess.start(ParlProcess.env(cluster.home), "master", "--standby", "--address",
          c.address(), "--port", "0", "--no-local-worker")) {
        String back = again.awaitLine("parl master ready: address (\\S+), CPU cluster, no local worker; standby of the "
            + "active master at " + c.address(), TestCluster.START).group(1);
        ParlProcess status = ParlProcess.start(ParlProcess.env(cluster.home), "status", "--address", back);
        assertEquals(0, status.awaitExit(Duration.ofSeconds(60)), status.output());
        assertTrue(status.output().contains("master " + c.address() + "  active "), status.output());
        assertTrue(status.output().contains("master " + back + "  standby"), status.output());
      }
      kept.close();
      second.close();
      third.close();
      cluster.awaitIdle();
      parl.close();
    }
  }

  /** True once a call to {@code a} fails with {@link ActorLostException}. */
  private static boolean lost(RemoteActor<Counter> a) throws Exception {
    try {
      a.call(Counter::value).await(20, TimeUnit.SECONDS);
      return false;
    } catch (ActorLostException e) {
      return true;
    }
  }

  private static Set<String> jobIds(JsonObject snapshot) {
    Set<String> ids = new HashSet<>();
    snapshot.getJsonArray("jobs").forEach(j -> ids.add(((JsonObject) j).getString("jobId")));
    return ids;
  }
}
