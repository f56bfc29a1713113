package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.parl.ParlClient;
import org.parl.ParlException;
import org.parl.RemoteActor;
import org.parl.demo.FakeNvidiaSmi;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;

/**
 * The GPU identity check of GPU jobs (docs/contract.md §11) against the fake nvidia-smi and the fake
 * {@code libcuda.so.1} the build compiles (src/test/native), which the worker's jobs find through
 * the {@code LD_LIBRARY_PATH} the master is started with; and MIG instances lent by their UUID.
 */
class GpuIdentityIT {

  private static final Path FAKE_LIBCUDA = Path.of(System.getProperty("parl.fakeLibcuda", "target/fake-cuda/libcuda.so.1"));

  /** A folder with the fake nvidia-smi of these GPUs and a copy of the fake libcuda; returns the script. */
  private static Path fakeGpus(List<FakeNvidiaSmi.Gpu> gpus) throws IOException {
    Path dir = Files.createTempDirectory("parl-fake-gpus");
    Path smi = FakeNvidiaSmi.write(dir, gpus);
    Files.copy(FAKE_LIBCUDA, dir.resolve("libcuda.so.1"), StandardCopyOption.COPY_ATTRIBUTES);
    return smi;
  }

  private static TestCluster start(Path smi) throws Exception {
    return TestCluster.start(Map.of("LD_LIBRARY_PATH", smi.getParent().toString()), 0,
        "--gpu-cluster", "--nvidia-smi", smi.toString());
  }

  /** Waits until a job log of the cluster holds the line. */
  private static void awaitJobLog(TestCluster cluster, String text) throws Exception {
    Await.until("a job log saying: " + text, Duration.ofSeconds(10), () -> {
      try (Stream<Path> files = Files.walk(cluster.home.resolve("workers"))) {
        for (Path f : files.filter(p -> p.toString().endsWith(".log")).toList()) {
          if (Files.readString(f).contains(text)) {
            return true;
          }
        }
        return false;
      }
    });
  }

  /**
   * Each GPU job process checks when it starts. A warm one for 1 GPU passes; a process started for
   * an actor with a memory limit (never a warm one) after the library is moved away skips the check
   * and says why; one started while the fake lies about its device fails the create with both
   * lists, and the worker logs them.
   */
  @Test
  void theCheckPassesIsSkippedWithoutADriverAndFailsTheCreateOnAnotherDevice() throws Exception {
    Path smi = fakeGpus(FakeNvidiaSmi.gpus(4));
    Path dir = smi.getParent();
    try (TestCluster cluster = start(smi)) {
      ParlClient parl = cluster.connect();
      List<RemoteActor<Counter>> held = new ArrayList<>();
      RemoteActor<Counter> checked = parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await();
      held.add(checked);
      String uuid = FakeNvidiaSmi.uuid(Integer.parseInt(checked.gpus().get(0)));
      awaitJobLog(cluster, "GPU identity check passed: the CUDA driver shows [" + uuid + "], this job's allocation");

      Files.move(dir.resolve("libcuda.so.1"), dir.resolve("libcuda.so.1.away"));
      held.add(parl.actor(Counter.class, CounterImpl.class).gpus(1).maxMemoryMb(256).createAsync().await());
      awaitJobLog(cluster, "GPU identity check skipped: libcuda.so.1 cannot be loaded");
      Files.move(dir.resolve("libcuda.so.1.away"), dir.resolve("libcuda.so.1"));

      String stranger = FakeNvidiaSmi.uuid(9);
      Files.writeString(dir.resolve("libcuda-swap"), stranger + "\n");
      ParlException e = assertThrows(ParlException.class,
          () -> parl.actor(Counter.class, CounterImpl.class).gpus(1).maxMemoryMb(256).create());
      assertTrue(e.getMessage().contains("GPU identity check failed: the CUDA driver shows [" + stranger
          + "] but this job was allocated [GPU-fa4e0000-0000-0000-0000-00000000000"), e.getMessage());
      cluster.master.awaitLine("does not run on its GPUs: the CUDA driver shows \\[" + stranger + "\\], its allocation is \\[GPU-",
          Duration.ofSeconds(10));
      Files.delete(dir.resolve("libcuda-swap"));
      held.forEach(RemoteActor::close);
      cluster.awaitIdle();
    } finally {
      TempTrees.delete(dir);
    }
  }

  /**
   * A GPU in MIG mode is lent as its instances, by the index rule (100 * (GPU + 1) + device), and
   * their jobs see the instance's MIG UUID in CUDA_VISIBLE_DEVICES, which the check confirms.
   */
  @Test
  void migInstancesAreLentByTheirUuid() throws Exception {
    List<FakeNvidiaSmi.Gpu> gpus = FakeNvidiaSmi.gpus(2);
    String mig0 = FakeNvidiaSmi.migUuid(0, 0);
    String mig1 = FakeNvidiaSmi.migUuid(0, 1);
    gpus = List.of(gpus.get(0).withMigs(List.of(new FakeNvidiaSmi.Mig(0, "3g.40gb", mig0), new FakeNvidiaSmi.Mig(1, "1g.10gb", mig1))),
        gpus.get(1));
    Path smi = fakeGpus(gpus);
    try (TestCluster cluster = start(smi)) {
      List<?> lent = cluster.awaitSnapshot(s -> s.getJsonArray("workers").size() == 1, Duration.ofSeconds(20))
          .getJsonArray("workers").getJsonObject(0).getJsonArray("worker_vacant_gpus").getList();
      assertEquals(Set.of(100, 101, 1), Set.copyOf(lent), "GPU 0's instances instead of GPU 0, and GPU 1");
      ParlClient parl = cluster.connect();
      List<RemoteActor<Counter>> actors = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        actors.add(parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await());
      }
      for (RemoteActor<Counter> a : actors) {
        String id = a.gpus().get(0);
        String expected = switch (id) {
          case "100" -> mig0;
          case "101" -> mig1;
          default -> "1";
        };
        assertEquals(expected, a.call(x -> x.env("CUDA_VISIBLE_DEVICES")).await(), "GPU " + id);
      }
      awaitJobLog(cluster, "GPU identity check passed: the CUDA driver shows [" + mig1 + "], this job's allocation");
      awaitJobLog(cluster, "GPU identity check passed: the CUDA driver shows [" + mig0 + "], this job's allocation");
      actors.forEach(RemoteActor::close);
      cluster.awaitIdle();
    } finally {
      TempTrees.delete(smi.getParent());
    }
  }
}
