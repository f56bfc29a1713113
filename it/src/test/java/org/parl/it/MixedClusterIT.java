package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.ClusterMismatchException;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;

/**
 * A mixed cluster (docs/contract.md §4.1): a master whose worker lends 2 CPUs and 2 fake GPUs, and a second
 * worker lending 2 CPUs and no GPU. CPU and GPU actors run side by side, each process's
 * environment (read from {@code /proc/PID/environ}) equal to its allocation.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MixedClusterIT {

  private TestCluster cluster;
  private String cpuWorker;

  @BeforeAll
  void start() throws Exception {
    cluster = TestCluster.startMixed(2, 2);
    cpuWorker = cluster.addWorker(new ParlProcess[1], "--cpus", "2", "--nvidia-smi", "/nonexistent/nvidia-smi");
  }

  @AfterAll
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void cpuAndGpuActorsRunSideBySideEachSeeingItsAllocation() throws Exception {
    cluster.awaitSnapshot(s -> s.getJsonArray("workers").size() == 2 && s.getJsonArray("jobs").isEmpty(), Duration.ofSeconds(30));
    try (ParlClient parl = cluster.connect()) {
      assertEquals("mixed", parl.clusterType());
      // CPU actors go first to the worker without GPUs, keeping the GPU host's CPUs for GPU actors
      RemoteActor<Counter> cpu1 = parl.actor(Counter.class, CounterImpl.class).createAsync().await();
      RemoteActor<Counter> cpu2 = parl.actor(Counter.class, CounterImpl.class).createAsync().await();
      assertEquals(cpuWorker, cpu1.workerId());
      assertEquals(cpuWorker, cpu2.workerId());
      RemoteActor<Counter> gpu = parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await();
      assertEquals(cluster.localWorker, gpu.workerId());
      assertEquals(1, gpu.gpus().size());
      // the CPU-only worker is full: the next CPU actor takes a CPU of the GPU host
      RemoteActor<Counter> cpu3 = parl.actor(Counter.class, CounterImpl.class).createAsync().await();
      assertEquals(cluster.localWorker, cpu3.workerId());

      for (RemoteActor<Counter> cpuActor : List.of(cpu1, cpu2, cpu3)) {
        assertEquals(List.of(), environGpus(cpuActor), "a CPU actor sees CUDA_VISIBLE_DEVICES=\"\"");
        assertEquals("", cpuActor.call(x -> x.env("CUDA_VISIBLE_DEVICES")).await());
      }
      assertEquals(gpu.gpus(), environGpus(gpu), "a GPU actor sees exactly its GPU");

      JsonObject s = cluster.awaitSnapshot(x -> x.getJsonArray("jobs").size() == 4, Duration.ofSeconds(10));
      JsonObject local = worker(s, cluster.localWorker);
      JsonObject other = worker(s, cpuWorker);
      assertEquals(2, local.getJsonObject("cpus").getInteger("used"), "the GPU actor's own CPU and the third CPU actor's");
      assertEquals(List.of(Integer.parseInt(gpu.gpus().get(0))), local.getJsonArray("worker_used_gpus").getList());
      assertEquals(1, local.getJsonArray("worker_vacant_gpus").size());
      assertEquals(2, other.getJsonObject("cpus").getInteger("used"));
      assertEquals(List.of(), other.getJsonArray("worker_vacant_gpus").getList());

      // both GPUs of the one worker that has them, plus a CPU each: the second fits, a third never could
      RemoteActor<Counter> gpu2 = parl.actor(Counter.class, CounterImpl.class).gpus(1).cpus(0).createAsync().await();
      assertNotEquals(gpu.gpus(), gpu2.gpus());
      var tooMany = org.junit.jupiter.api.Assertions.assertThrows(org.parl.InvalidRequestException.class,
          () -> parl.actor(Counter.class, CounterImpl.class).gpus(3).createAsync().await());
      assertTrue(tooMany.getMessage().contains("could ever hold 3 GPUs and 1 CPU"), tooMany.getMessage());
      assertTrue(tooMany.getMessage().contains("lends 2 GPU"), tooMany.getMessage());
    }
    cluster.awaitIdle();
  }

  @Test
  void gpuOptionsOnACpuClusterAreStillAMismatch() throws Exception {
    try (TestCluster cpu = TestCluster.start(0, "--cpus", "1"); ParlClient parl = cpu.connect()) {
      var e = org.junit.jupiter.api.Assertions.assertThrows(ClusterMismatchException.class,
          () -> parl.actor(Counter.class, CounterImpl.class).gpus(0.25).createAsync().await());
      assertTrue(e.getMessage().contains("this is a CPU cluster and the actor asks for 0.25 of a GPU"), e.getMessage());
    }
  }

  private static JsonObject worker(JsonObject snapshot, String id) {
    for (Object o : snapshot.getJsonArray("workers")) {
      if (o instanceof JsonObject w && id.equals(w.getString("id"))) {
        return w;
      }
    }
    throw new AssertionError("no worker " + id + " in " + snapshot.encode());
  }

  /** The GPUs the actor's process has in its environment, read by the kernel's account of it. */
  private static List<String> environGpus(RemoteActor<Counter> actor) {
    long pid = actor.call(Counter::pid).await();
    return new ArrayList<>(JobProcesses.job(pid).orElseThrow(() -> new AssertionError("no job process " + pid)).gpus());
  }
}
