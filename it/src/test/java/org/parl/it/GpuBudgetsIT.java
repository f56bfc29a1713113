package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.ActorLostException;
import org.parl.InvalidRequestException;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.demo.FakeNvidiaSmi;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;

/**
 * GPU models and GPU memory budgets (docs/contract.md §4.1) on a GPU cluster whose worker lends two models: an
 * A100 with 40 GiB and a T4 with 15 GiB (a fake nvidia-smi, whose per-process GPU memory the test
 * sets through its {@code compute-apps} file, as the real one reports it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GpuBudgetsIT {

  private static final String A100 = "NVIDIA A100-SXM4-40GB";
  private static final String T4 = "Tesla T4";

  private Path fake;
  private TestCluster cluster;

  @BeforeAll
  void start() throws Exception {
    fake = Files.createTempDirectory("parl-fake-gpus");
    Path smi = FakeNvidiaSmi.write(fake, List.of(
        new FakeNvidiaSmi.Gpu(0, FakeNvidiaSmi.uuid(0), A100, 40_960, 0, 0, List.of()),
        new FakeNvidiaSmi.Gpu(1, FakeNvidiaSmi.uuid(1), T4, 15_360, 0, 0, List.of())));
    cluster = TestCluster.start(0, "--gpu-cluster", "--nvidia-smi", smi.toString());
  }

  @AfterAll
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
    TempTrees.delete(fake);
  }

  @Test
  void actorsArePlacedByModelAndBudget() throws Exception {
    try (ParlClient parl = cluster.connect()) {
      RemoteActor<Counter> onA100 = parl.actor(Counter.class, CounterImpl.class).gpus(0.5).gpuModel("a100")
          .createAsync().await();
      assertEquals(List.of("0"), onA100.gpus());
      RemoteActor<Counter> onT4 = parl.actor(Counter.class, CounterImpl.class).gpus(0.5).gpuModel("T4")
          .createAsync().await();
      assertEquals(List.of("1"), onT4.gpus());
      // 20 GiB fits only in the A100's memory, whatever the shares left on the T4
      RemoteActor<Counter> big = parl.actor(Counter.class, CounterImpl.class).gpuMemoryMb(20_000).createAsync().await();
      assertEquals(List.of("0"), big.gpus());
      InvalidRequestException absent = assertThrows(InvalidRequestException.class,
          () -> parl.actor(Counter.class, CounterImpl.class).gpus(1).gpuModel("V100").createAsync().await());
      assertTrue(absent.getMessage().contains(A100) && absent.getMessage().contains(T4),
          "names the models present: " + absent.getMessage());
      InvalidRequestException tooBig = assertThrows(InvalidRequestException.class,
          () -> parl.actor(Counter.class, CounterImpl.class).gpuMemoryMb(50_000).createAsync().await());
      assertTrue(tooBig.getMessage().contains("40960"), "names the largest GPU memory: " + tooBig.getMessage());
      var worker = cluster.awaitSnapshot(s -> s.getJsonArray("jobs").size() == 3, Duration.ofSeconds(10))
          .getJsonArray("workers").getJsonObject(0);
      assertEquals(20_000, worker.getJsonArray("gpuShares").getJsonObject(0).getLong("memoryBudgetMb"));
    }
    cluster.awaitIdle();
  }

  @Test
  void anActorOverItsBudgetIsStoppedAndOnlyIt() throws Exception {
    try (ParlClient parl = cluster.connect()) {
      RemoteActor<Counter> greedy = parl.actor(Counter.class, CounterImpl.class).gpus(0.25).gpuMemoryMb(4096)
          .gpuModel("T4").createAsync().await();
      RemoteActor<Counter> modest = parl.actor(Counter.class, CounterImpl.class).gpus(0.25).gpuMemoryMb(4096)
          .gpuModel("T4").createAsync().await();
      long greedyPid = greedy.call(Counter::pid).await();
      long modestPid = modest.call(Counter::pid).await();
      Path marker = cluster.marker("budget");
      Future<Void> pending = greedy.run(x -> x.markThenSleep(marker.toString(), 120_000));
      Await.until("the greedy actor's call running", Duration.ofSeconds(20), () -> Files.exists(marker), b -> b);
      // what nvidia-smi reports of each process: the greedy one is over its 4096 MiB, the other within
      Files.writeString(fake.resolve("compute-apps"), greedyPid + "," + FakeNvidiaSmi.uuid(1) + ",6000\n"
          + modestPid + "," + FakeNvidiaSmi.uuid(1) + ",1000\n");
      ActorLostException lost = assertThrows(ActorLostException.class, () -> pending.await(30, TimeUnit.SECONDS));
      assertTrue(lost.getMessage().contains("gpuMemoryMb=4096"), "names the budget: " + lost.getMessage());
      assertTrue(lost.getMessage().contains("6000 MiB"), lost.getMessage());
      assertEquals(3, modest.call(x -> x.add(3)).await(), "the actor within its budget keeps answering");
      Files.delete(fake.resolve("compute-apps"));
    }
    cluster.awaitIdle();
  }
}
