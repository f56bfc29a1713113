package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.parl.ConnectOptions;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.ResourceException;
import org.parl.demo.FakeNvidiaSmi;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;

/**
 * One physical GPU is lent by one worker at a time (docs/contract.md §4): two workers on one host that
 * read the same GPUs (the same fake nvidia-smi, so the same UUIDs) never both lend one, whether they
 * belong to one cluster or two. The host's claims refuse the second worker at its start; where the
 * claims are not shared (another lock folder, as in a container), the JobCenter refuses it by UUID.
 */
class OneLenderPerGpuIT {

  private static final Duration QUICK = Duration.ofSeconds(60);

  @Test
  void aSecondWorkerOfTheSameHostCannotLendAGpuTheFirstLends() throws Exception {
    try (TestCluster cluster = TestCluster.start(2)) {
      Path smi = cluster.home.resolve("fake-gpus-2").resolve("nvidia-smi"); // parl fake-gpus 2
      assertTrue(Files.isExecutable(smi), "the master's own fake: " + smi);
      String uuid0 = Files.readAllLines(smi.getParent().resolve("gpus")).get(0).split(" ")[1];

      // the same host, the same cluster: refused by the host's claim on GPU 0, before it joins the pool
      try (ParlProcess second = ParlProcess.start(ParlProcess.env(cluster.home), "worker", "--address", cluster.address,
          "--gpus", "0", "--nvidia-smi", smi.toString())) {
        assertEquals(1, second.awaitExit(QUICK), second.output());
        assertTrue(second.output().contains("GPU 0 (" + uuid0 + ") is already lent by another worker on this host (worker "
            + cluster.localWorker + " of the cluster at "), second.output());
        assertFalse(second.output().contains("Exception"), "one sentence, no stack trace: " + second.output());
      }

      // claims kept apart (a container's own /run/lock): the JobCenter still knows GPU 0 by its UUID
      Map<String, String> apart = new HashMap<>(ParlProcess.env(cluster.home));
      apart.put("PARL_GPU_LOCKS", Files.createDirectories(cluster.home.resolve("other-locks")).toString());
      try (ParlProcess second = ParlProcess.start(apart, "worker", "--address", cluster.address,
          "--gpus", "0", "--nvidia-smi", smi.toString())) {
        assertEquals(1, second.awaitExit(QUICK), second.output());
        assertTrue(second.output().matches("(?s).*GPU 0 \\(" + uuid0 + "\\) of worker w-\\w+ on \\S+ is already lent by worker "
            + cluster.localWorker + " on \\S+: one GPU is lent by one worker at a time; start w-\\w+ with --gpus listing other "
            + "GPUs, or stop " + cluster.localWorker + " first.*"), second.output());
      }

      // a second cluster on the same host: refused by the same claim
      Path otherHome = Files.createTempDirectory("parl-it-second-cluster");
      try (ParlProcess other = ParlProcess.start(ParlProcess.env(otherHome), "master", "--port", "0", "--gpu-cluster",
          "--nvidia-smi", smi.toString())) {
        assertEquals(1, other.awaitExit(QUICK), other.output());
        assertTrue(other.output().contains("GPU 0 (" + uuid0 + ") is already lent by another worker on this host"), other.output());
      } finally {
        TempTrees.delete(otherHome);
      }

      // the pool holds each GPU once: two 1-GPU actors get GPUs 0 and 1, a third waits and times out
      String status = cluster.cli("status").output();
      assertTrue(status.contains("GPUs 0 used / 2 vacant"), status);
      ParlClient parl = cluster.connect(new ConnectOptions().setResourceWaitTimeout(Duration.ofMillis(1500)));
      Set<String> given = new HashSet<>();
      for (int i = 0; i < 2; i++) {
        RemoteActor<Counter> a = parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await(60, TimeUnit.SECONDS);
        assertEquals(cluster.localWorker, a.workerId());
        assertTrue(given.add(a.gpus().get(0)), "GPU " + a.gpus() + " given twice");
      }
      assertEquals(Set.of("0", "1"), given);
      assertThrows(ResourceException.class,
          () -> parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await(60, TimeUnit.SECONDS),
          "a third GPU on a 2-GPU host");
      cluster.awaitSnapshot(s -> s.getJsonArray("workers").size() == 1, Duration.ofSeconds(10));
    }
  }

  @Test
  void aStoppedWorkersGpusCanBeLentAgainOnItsHost() throws Exception {
    Path host = Files.createTempDirectory("parl-it-one-host");
    try {
      Path smi = FakeNvidiaSmi.write(host, 2);
      String uuid0 = Files.readAllLines(smi.getParent().resolve("gpus")).get(0).split(" ")[1];
      Path claim;
      try (TestCluster cluster = TestCluster.start(0, "--gpu-cluster", "--nvidia-smi", smi.toString())) {
        claim = Stream.of(Path.of("/run/lock/parl-gpus"), Path.of(System.getProperty("java.io.tmpdir"), "parl-gpus"))
            .map(d -> d.resolve(uuid0)).filter(Files::exists).findFirst()
            .orElseThrow(() -> new AssertionError("no claim of " + uuid0));
        assertTrue(Files.readString(claim).startsWith("worker " + cluster.localWorker + " of the cluster at "), Files.readString(claim));
        cluster.master.stop(Duration.ofSeconds(60)); // SIGTERM: an orderly stop
      }
      assertFalse(Files.exists(claim), "a cleanly stopped worker removes its claims: " + claim);
      try (TestCluster killed = TestCluster.start(0, "--gpu-cluster", "--nvidia-smi", smi.toString())) {
        assertTrue(Files.readString(claim).startsWith("worker " + killed.localWorker + " "), Files.readString(claim));
      } // SIGKILLed: its claim's file stays, but the kernel dropped its lock with the process
      assertTrue(Files.exists(claim));
      try (TestCluster again = TestCluster.start(0, "--gpu-cluster", "--nvidia-smi", smi.toString())) {
        String status = again.cli("status").output();
        assertTrue(status.contains("GPUs 0 used / 2 vacant"), status);
        assertTrue(Files.readString(claim).startsWith("worker " + again.localWorker + " "), Files.readString(claim));
      }
    } finally {
      TempTrees.delete(host);
    }
  }
}
