package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.ActorLostException;
import org.parl.ClusterMismatchException;
import org.parl.InvalidRequestException;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;
import org.parl.it.actors.Reusable;
import org.parl.it.actors.ReusableImpl;

/**
 * GPU actors on a GPU cluster whose master lends a fake 4-GPU inventory. Each test starts from that
 * one worker wholly vacant, with a client of its own that is closed (freeing its actors) after it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GpuActorsIT {

  private TestCluster cluster;
  private ParlClient parl;

  @BeforeAll
  void start() throws Exception {
    cluster = TestCluster.start(4);
  }

  @AfterAll
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** The state every test starts from: the master's worker alone, wholly vacant, nobody waiting. */
  @BeforeEach
  void awaitIdleAndConnect() throws Exception {
    cluster.awaitSnapshot(s -> s.getJsonArray("jobs").isEmpty() && s.getInteger("waiting") == 0
        && s.getJsonArray("workers").size() == 1, Duration.ofSeconds(20));
    parl = cluster.connect();
  }

  @AfterEach
  void disconnect() {
    parl.close();
  }

  @Test
  void eachActorSeesExactlyItsGpus() throws Exception {
    List<RemoteActor<Counter>> singles = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      singles.add(parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await());
    }
    Set<String> seen = new HashSet<>();
    for (RemoteActor<Counter> a : singles) {
      String visible = a.call(x -> x.env("CUDA_VISIBLE_DEVICES")).await();
      assertEquals(String.join(",", a.gpus()), visible, "CUDA_VISIBLE_DEVICES is exactly the allocated id");
      assertEquals("PCI_BUS_ID", a.call(x -> x.env("CUDA_DEVICE_ORDER")).await());
      assertTrue(seen.add(visible), "GPU " + visible + " given twice");
    }
    singles.remove(0).close();
    RemoteActor<Counter> pair = parl.actor(Counter.class, CounterImpl.class).gpus(2).createAsync().await();
    assertEquals(2, pair.gpus().size());
    assertEquals(String.join(",", pair.gpus()), pair.call(x -> x.env("CUDA_VISIBLE_DEVICES")).await());

    Future<RemoteActor<Counter>> fifth = parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync();
    cluster.awaitWaiting(1);
    assertFalse(fifth.isComplete(), "all 4 GPUs are held; the request waits");
    List<String> freed = singles.get(0).gpus();
    singles.remove(0).close();
    RemoteActor<Counter> late = fifth.await(60, TimeUnit.SECONDS);
    assertEquals(freed, late.gpus(), "the waiting request gets the freed GPU");
    assertEquals(freed.get(0), late.call(x -> x.env("CUDA_VISIBLE_DEVICES")).await());

    late.close();
    pair.close();
    singles.forEach(RemoteActor::close);
    JsonObject idle = cluster.awaitIdle();
    JsonObject worker = idle.getJsonArray("workers").getJsonObject(0);
    assertEquals(List.of(0, 1, 2, 3), worker.getJsonArray("worker_vacant_gpus").getList());
    assertEquals(List.of(), worker.getJsonArray("worker_used_gpus").getList());
  }

  /** A GPU job process taken back after a clean close keeps its GPU, and hosts only an actor given that GPU. */
  @Test
  void aReusedGpuProcessKeepsItsGpu() throws Exception {
    RemoteActor<Reusable> first = parl.actor(Reusable.class, ReusableImpl.class).gpus(1).createAsync().await();
    List<RemoteActor<Counter>> others = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      others.add(parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await());
    }
    long pid = first.call(Reusable::pid).await();
    String visible = first.call(x -> x.env("CUDA_VISIBLE_DEVICES")).await();
    assertEquals(String.join(",", first.gpus()), visible);
    first.run(x -> x.write("left-by-first.txt", "first")).await();
    int clean = ReuseLines.cleanCount(cluster.master, pid);
    first.close();
    ReuseLines.awaitClean(cluster.master, pid, clean + 1);

    RemoteActor<Reusable> second = parl.actor(Reusable.class, ReusableImpl.class).gpus(1).createAsync().await();
    assertEquals(first.gpus(), second.gpus(), "the only vacant GPU");
    assertEquals(pid, second.call(Reusable::pid).await(), "the process of that GPU is reused");
    assertEquals(String.join(",", second.gpus()), second.call(x -> x.env("CUDA_VISIBLE_DEVICES")).await(),
        "CUDA_VISIBLE_DEVICES unchanged and equal to the new actor's GPUs");
    assertEquals(1, second.call(Reusable::bumpStatic).await(), "no static state of the first actor");
    assertFalse(second.call(x -> x.exists("left-by-first.txt")).await(), "a fresh working directory");
    second.close();
    others.forEach(RemoteActor::close);
    cluster.awaitIdle();
  }

  @Test
  void wrongRequestsAreRefused() {
    ClusterMismatchException cpu = assertThrows(ClusterMismatchException.class,
        () -> parl.actor(Counter.class, CounterImpl.class).create());
    assertTrue(cpu.getMessage().contains("GPU cluster"), cpu.getMessage());
    InvalidRequestException many = assertThrows(InvalidRequestException.class,
        () -> parl.actor(Counter.class, CounterImpl.class).gpus(9).create());
    assertTrue(many.getMessage().contains("at most 8 GPUs"), many.getMessage());
  }

  @Test
  void aKilledClientGivesItsGpusBack() throws Exception {
    ParlProcess client = cluster.program(ClientProgram.class, cluster.address, "2", "2");
    client.awaitLine("READY", TestCluster.START);
    cluster.awaitSnapshot(s -> s.getJsonArray("jobs").size() == 2, Duration.ofSeconds(10));
    client.kill();
    JsonObject idle = cluster.awaitIdle();
    assertEquals(List.of(0, 1, 2, 3), idle.getJsonArray("workers").getJsonObject(0).getJsonArray("worker_vacant_gpus").getList());
  }

  @Test
  void aDeadWorkerFailsItsActorsCalls() throws Exception {
    ParlProcess[] handle = new ParlProcess[1];
    String w2 = cluster.addWorker(handle, "--nvidia-smi", cluster.fakeSmi(2).toString());
    try (ParlProcess worker2 = handle[0]) {
      RemoteActor<Counter> onMaster = parl.actor(Counter.class, CounterImpl.class).gpus(4).createAsync().await();
      RemoteActor<Counter> onW2 = parl.actor(Counter.class, CounterImpl.class).gpus(2).createAsync().await();
      assertEquals(w2, onW2.workerId());
      Path running = cluster.marker("on-w2");
      Future<Void> pending = onW2.run(x -> x.markThenSleep(running.toString(), 60_000));
      Await.until("the call running on " + w2, Duration.ofSeconds(20), () -> Files.exists(running));
      worker2.kill();
      ActorLostException e = assertThrows(ActorLostException.class, () -> pending.await(15, TimeUnit.SECONDS));
      assertTrue(e.getMessage().contains(w2), e.getMessage());
      assertThrows(ActorLostException.class, () -> onW2.call(Counter::value).await());
      assertEquals(1, onMaster.call(x -> x.add(1)).await(), "actors elsewhere are untouched");
      onW2.close();
      onMaster.close();
      cluster.awaitSnapshot(s -> s.getJsonArray("jobs").isEmpty() && s.getJsonArray("workers").size() == 1, Duration.ofSeconds(20));
    }
  }
}
