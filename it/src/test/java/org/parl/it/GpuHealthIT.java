package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.GpuFaultException;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.demo.FakeNvidiaSmi;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;

/**
 * GPU health and drain (docs/contract.md §11) on a GPU cluster whose local worker lends two fake GPUs: an ECC
 * fault written into the fake nvidia-smi's {@code faults} file quarantines exactly that GPU and stops
 * its actor with a {@link GpuFaultException}; the GPU returns once healthy for the (shortened) healthy
 * time. {@code parl drain WORKER:GPU} lets a running actor finish and places nothing new there.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GpuHealthIT {

  /** The healthy time, shortened for the test (60 s by default). */
  private static final long HEALTHY_AFTER_MS = 3_000;

  private Path fake;
  private Path smi;
  private TestCluster cluster;

  @BeforeAll
  void start() throws Exception {
    fake = Files.createTempDirectory("parl-fake-gpus");
    smi = FakeNvidiaSmi.write(fake.resolve("fake-gpus-2"), FakeNvidiaSmi.gpus(2)); // UUIDs of FakeNvidiaSmi.uuid(i)
    // the master's JVM is started directly here (not by bin/parl, whose PARL_JAVA_OPTS would carry it)
    cluster = TestCluster.start(Map.of("JAVA_TOOL_OPTIONS",
        (System.getenv().getOrDefault("JAVA_TOOL_OPTIONS", "") + " -Dparl.gpu.healthyAfterMs=" + HEALTHY_AFTER_MS).strip()), 0,
        "--gpu-cluster", "--nvidia-smi", smi.toString(), "--cuda-visible-devices", "uuid");
  }

  @AfterAll
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
    TempTrees.delete(fake);
  }

  private static JsonObject worker(JsonObject snapshot) {
    return snapshot.getJsonArray("workers").getJsonObject(0);
  }

  private static List<?> list(JsonObject worker, String field) {
    return worker.getJsonArray(field).getList();
  }

  private static JsonObject share(JsonObject worker, int gpu) {
    for (Object o : worker.getJsonArray("gpuShares")) {
      if (o instanceof JsonObject s && s.getInteger("index") == gpu) {
        return s;
      }
    }
    throw new AssertionError("no gpuShares entry for GPU " + gpu + ": " + worker.encode());
  }

  @Test
  void anEccFaultQuarantinesTheGpuStopsItsActorAndTheGpuComesBack() throws Exception {
    Path faults = smi.getParent().resolve("faults");
    try (ParlClient parl = cluster.connect()) {
      RemoteActor<Counter> a = parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await();
      RemoteActor<Counter> b = parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await();
      int k = Integer.parseInt(a.gpus().get(0));
      int other = Integer.parseInt(b.gpus().get(0));
      assertNotEquals(k, other);
      assertEquals(FakeNvidiaSmi.uuid(k), a.call(x -> x.env("CUDA_VISIBLE_DEVICES")).await(),
          "--cuda-visible-devices uuid: the job sees its GPU by UUID");
      Path marker = cluster.marker("health");
      Future<Void> pending = a.run(x -> x.markThenSleep(marker.toString(), 120_000));
      Await.until("the actor's call running", Duration.ofSeconds(20), () -> Files.exists(marker), done -> done);
      Files.writeString(faults, k + " ecc=2\n");
      GpuFaultException fault = assertThrows(GpuFaultException.class, () -> pending.await(30, TimeUnit.SECONDS));
      assertTrue(fault.getMessage().contains("GPU " + k + " (" + FakeNvidiaSmi.uuid(k) + ")"), fault.getMessage());
      assertTrue(fault.getMessage().contains("uncorrected volatile ECC errors: 2"), fault.getMessage());
      assertEquals(k, fault.gpu());
      assertEquals(cluster.localWorker, fault.workerId());
      assertThrows(GpuFaultException.class, () -> a.call(x -> x.add(1)).await(10, TimeUnit.SECONDS),
          "a later call fails the same way");
      JsonObject w = worker(cluster.awaitSnapshot(s -> worker(s).getJsonArray("worker_out_of_service_gpus").contains(k),
          Duration.ofSeconds(20)));
      assertTrue(share(w, k).getBoolean("quarantined"), w.encode());
      assertEquals("uncorrected volatile ECC errors: 2", share(w, k).getString("fault"));
      assertFalse(list(w, "worker_vacant_gpus").contains(k), w.encode());
      assertEquals(3, b.call(x -> x.add(3)).await(10, TimeUnit.SECONDS), "the actor on the other GPU keeps answering");
      Future<RemoteActor<Counter>> next = parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync();
      cluster.awaitWaiting(1); // the only other GPU is busy: it waits instead of going to the quarantined one
      Files.delete(faults);
      RemoteActor<Counter> c = next.await(40, TimeUnit.SECONDS);
      assertEquals(List.of(String.valueOf(k)), c.gpus(), "back in service once healthy for the healthy time");
      assertEquals(2, c.call(x -> x.add(2)).await(10, TimeUnit.SECONDS));
      JsonObject after = worker(cluster.awaitSnapshot(s -> s.getJsonArray("jobs").size() == 2, Duration.ofSeconds(10)));
      assertFalse(share(after, k).getBoolean("quarantined"), after.encode());
    } finally {
      Files.deleteIfExists(faults);
    }
    cluster.awaitIdle();
  }

  @Test
  void aWorkerThatOnlyWarnsKeepsItsActorsOnAQuarantinedGpu() throws Exception {
    Path fake2 = Files.createTempDirectory("parl-fake-gpus-warn");
    Path smi2 = FakeNvidiaSmi.write(fake2, List.of(
        new FakeNvidiaSmi.Gpu(0, FakeNvidiaSmi.uuid(20), "NVIDIA Fake H100", 81559, 512, 0, List.of())));
    ParlProcess[] handle = new ParlProcess[1];
    String warner = cluster.addWorker(handle, "--nvidia-smi", smi2.toString(), "--gpu-faults", "warn");
    ParlProcess drain = cluster.cli("drain", cluster.localWorker, "--address", cluster.address);
    try (ParlClient parl = cluster.connect()) {
      assertEquals(0, drain.awaitExit(Duration.ofSeconds(5)), drain.output());
      RemoteActor<Counter> a = parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await();
      assertEquals(warner, a.workerId(), "the local worker is drained");
      Files.writeString(fake2.resolve("faults"), "0 ecc=3\n");
      cluster.awaitSnapshot(s -> s.getJsonArray("workers").stream().map(JsonObject.class::cast)
          .anyMatch(w -> w.getString("id").equals(warner) && share(w, 0).getBoolean("quarantined")), Duration.ofSeconds(20));
      Await.until("the master's one warning", Duration.ofSeconds(10),
          () -> cluster.master.output().contains("runs with --gpu-faults warn: job(s) [" + a.jobId() + "] keep running"));
      assertEquals(4, a.call(x -> x.add(4)).await(10, TimeUnit.SECONDS), "--gpu-faults warn: the actor runs on");
      a.close();
    } finally {
      cluster.cli("undrain", cluster.localWorker, "--address", cluster.address);
      handle[0].stop(Duration.ofSeconds(20));
      TempTrees.delete(fake2);
    }
    cluster.awaitSnapshot(s -> s.getJsonArray("workers").size() == 1 && s.getJsonArray("jobs").isEmpty()
        && !worker(s).getBoolean("drained"), Duration.ofSeconds(20));
  }

  @Test
  void aDrainedGpuKeepsItsActorAndTakesNothingNew() throws Exception {
    try (ParlClient parl = cluster.connect()) {
      RemoteActor<Counter> a = parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await();
      String gpu = a.gpus().get(0);
      String target = cluster.localWorker + ":" + gpu;
      ParlProcess drain = cluster.cli("drain", target, "--address", cluster.address);
      assertEquals(0, drain.awaitExit(Duration.ofSeconds(5)), drain.output());
      assertEquals(1, a.call(x -> x.add(1)).await(10, TimeUnit.SECONDS), "the running actor keeps answering");
      RemoteActor<Counter> b = parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await();
      assertNotEquals(gpu, b.gpus().get(0), "nothing new is placed on a drained GPU");
      a.close();
      Future<RemoteActor<Counter>> next = parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync();
      JsonObject w = worker(cluster.awaitWaiting(1));
      assertTrue(list(w, "worker_out_of_service_gpus").contains(Integer.parseInt(gpu)), w.encode());
      ParlProcess undrain = cluster.cli("undrain", target, "--address", cluster.address);
      assertEquals(0, undrain.awaitExit(Duration.ofSeconds(5)), undrain.output());
      RemoteActor<Counter> c = next.await(20, TimeUnit.SECONDS);
      assertEquals(List.of(gpu), c.gpus(), "undrained: the waiting create is placed there");
    }
    cluster.awaitIdle();
  }
}
