package org.parl.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.parl.control.ClusterType;
import org.parl.control.JobCenterRequest.Allocate;
import org.parl.control.JobCenterRequest.RegisterWorker;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.gateway.Job;
import org.parl.internal.wire.gateway.WorkerState.GpuCard;

class JobCenterTest {

  private final JobCenter<String> gpu = new JobCenter<>(ClusterType.GPU, 8);
  private final JobCenter<String> cpu = new JobCenter<>(ClusterType.CPU, 8);

  private static RegisterWorker worker(String id, String node, int cpus, List<Integer> gpus) {
    return new RegisterWorker(id, node, "host", "127.0.0.1", cpus, gpus, List.of());
  }

  private static Allocate gpus(String client, int n) {
    return new Allocate(client, 0, n, 0, 1000, "A", "?");
  }

  @Test
  void aWorkerShowsItsHostsCoresApartFromWhatItLends() {
    cpu.register(new RegisterWorker("w", "n", "host", "127.0.0.1", 3, 16, 0, List.of(), List.of(), List.of()));
    var state = cpu.snapshot("ok").workers().get(0);
    assertEquals(3, state.cpus().total());
    assertEquals(16, state.hostCpus());
    assertThrows(org.parl.internal.wire.BadMessageException.class,
        () -> new RegisterWorker("w", "n", "host", "127.0.0.1", 3, 0, 0, List.of(), List.of(), List.of()), "a host has a core");
  }

  @Test
  void workersOfTheWrongKindAreRefused() {
    Rejected noGpus = assertThrows(Rejected.class, () -> gpu.register(worker("w", "n", 4, List.of())));
    assertEquals(ErrorKind.MISMATCH, noGpus.kind());
    Rejected withGpus = assertThrows(Rejected.class, () -> cpu.register(worker("w", "n", 4, List.of(0))));
    assertEquals(ErrorKind.MISMATCH, withGpus.kind());
    gpu.register(worker("w", "n", 4, List.of(0)));
    assertTrue(gpu.register(worker("w", "n", 4, List.of(1))).adopted().isEmpty(), "the same worker again: a retry, no change");
    assertEquals(List.of(0), gpu.snapshot("ok").workers().get(0).vacantGpus());
    assertEquals(ErrorKind.INVALID, assertThrows(Rejected.class, () -> gpu.register(worker("w", "n2", 4, List.of(1)))).kind());
    gpu.checkInvariants();
  }

  private static RegisterWorker lending(String id, String node, String hostname, List<Integer> gpus, String... uuids) {
    List<GpuCard> cards = new java.util.ArrayList<>();
    for (int i = 0; i < gpus.size(); i++) {
      cards.add(new GpuCard(gpus.get(i), uuids[i], "NVIDIA H100", 81_559, 0, 0));
    }
    return new RegisterWorker(id, node, hostname, "127.0.0.1", 4, gpus, cards);
  }

  @Test
  void aPhysicalGpuIsLentByOneWorkerOnly() {
    gpu.register(lending("w-A", "n1", "host1", List.of(0, 1), "GPU-aaaa", "GPU-bbbb"));
    Rejected twice = assertThrows(Rejected.class,
        () -> gpu.register(lending("w-B", "n2", "host1", List.of(0, 2), "GPU-cccc", "GPU-bbbb")));
    assertEquals(ErrorKind.INVALID, twice.kind());
    assertEquals("GPU 2 (GPU-bbbb) of worker w-B on host1 is already lent by worker w-A on host1: one GPU is lent by one "
        + "worker at a time; start w-B with --gpus listing other GPUs, or stop w-A first", twice.getMessage());
    assertEquals(1, gpu.snapshot("ok").workers().size(), "the refused worker lends nothing, not even its other GPU");
    assertEquals(2, gpu.snapshot("ok").workers().get(0).vacantGpus().size());
    gpu.checkInvariants();

    gpu.register(lending("w-C", "n3", "host2", List.of(0), "GPU-cccc"));
    gpu.removeWorker("w-A");
    gpu.register(lending("w-B", "n2", "host1", List.of(1), "GPU-bbbb"));
    assertEquals(2, gpu.snapshot("ok").workers().size(), "a GPU is lent again once its lender left");
    assertThrows(Rejected.class, () -> gpu.register(lending("w-D", "n4", "host2", List.of(3), "GPU-cccc")));

    // without a UUID a GPU is known by its index on its worker: the JobCenter cannot tell two hosts' GPU 0 apart
    gpu.register(worker("w-E", "n5", 4, List.of(0)));
    gpu.register(worker("w-F", "n6", 4, List.of(0)));
    assertEquals(4, gpu.snapshot("ok").workers().size());
    gpu.checkInvariants();
  }

  @Test
  void requestsAreValidatedAgainstTheClusterType() {
    gpu.register(worker("w", "n", 4, List.of(0, 1)));
    cpu.register(worker("c", "n", 2, List.of()));
    assertEquals(ErrorKind.MISMATCH, assertThrows(Rejected.class, () -> gpu.submit(new Allocate("c", 1, 0, 0, 10, "A", "?"), "x")).kind());
    assertEquals(ErrorKind.MISMATCH, assertThrows(Rejected.class, () -> cpu.submit(gpus("c", 1), "x")).kind());
    assertEquals(ErrorKind.INVALID, assertThrows(Rejected.class, () -> gpu.submit(gpus("c", 9), "x")).kind());
    // an ill-formed request never reaches the JobCenter: it is refused where it is built (client or gateway)
    assertThrows(IllegalArgumentException.class, () -> gpus("c", -1));
    assertThrows(IllegalArgumentException.class, () -> new Allocate("c", 0, 0, 0, 10, "A", "?"));
    assertEquals(0, gpu.jobs().size());
    gpu.checkInvariants();
  }

  @Test
  void aClientThatLeavesLosesItsWaitingRequests() {
    gpu.register(worker("w", "n", 4, List.of(0)));
    Job held = gpu.submit(gpus("a", 1), "first").job().orElseThrow();
    assertTrue(gpu.submit(gpus("b", 1), "b-waits").job().isEmpty());
    assertTrue(gpu.submit(gpus("c", 1), "c-waits").job().isEmpty());
    assertEquals(List.of("b-waits"), gpu.cancelClient("b"));
    gpu.end(held.jobId());
    List<JobCenter.Granted<String>> granted = gpu.drain();
    assertEquals("c-waits", granted.get(0).handle());
    gpu.checkInvariants();
  }

  @Test
  void aDeadNodeTakesItsWorkersAndJobs() {
    gpu.register(worker("w1", "node-a", 4, List.of(0, 1)));
    gpu.register(worker("w2", "node-b", 4, List.of(0)));
    Job onA = gpu.submit(gpus("c", 2), "x").job().orElseThrow();
    List<JobCenter.Lost> lost = gpu.loseNode("node-a", w -> System.nanoTime()).stream().map(JobCenter.Leased::lost)
        .toList();
    assertEquals(1, lost.size());
    assertEquals(List.of(onA), lost.get(0).jobs());
    assertTrue(gpu.end(onA.jobId()).isEmpty(), "a lost job has nothing left to release");
    assertEquals(1, gpu.snapshot("ok").workers().size());
    gpu.checkInvariants();
  }

  @Test
  void aLostWorkersGpusStayHeldUntilItsLeaseEnds() {
    gpu.register(lending("w-A", "n1", "host1", List.of(0, 1), "GPU-aaaa", "GPU-bbbb"));
    Job onA = gpu.submit(gpus("c", 2), "x").job().orElseThrow();
    long leaseEnds = System.nanoTime() + 60_000_000_000L;
    JobCenter.Lost lost = gpu.loseNode("n1", w -> leaseEnds).get(0).lost();
    assertEquals(List.of(onA), lost.jobs());
    assertEquals(0, gpu.snapshot("ok").workers().size(), "nothing is placed on a lost worker");

    // the same GPUs from a worker started again (here, or on a host that shares them) wait for the lease
    RegisterWorker again = lending("w-A", "n2", "host1", List.of(0, 1), "GPU-aaaa", "GPU-bbbb");
    JobCenter.Hold hold = gpu.leaseHolding(again).orElseThrow();
    assertEquals(new JobCenter.Hold(lost.worker(), leaseEnds), hold);
    Rejected held = assertThrows(Rejected.class, () -> gpu.register(again));
    assertEquals(ErrorKind.INVALID, held.kind());
    assertTrue(held.getMessage().matches("GPU 0 \\(GPU-aaaa\\) of worker w-A on host1 was lent by worker w-A on host1, "
        + "which left the cluster without a word: it stays held until that worker's jobs are surely gone \\(its lease ends "
        + "in (59|60)\\d{3} ms\\); start w-A again after that"), held.getMessage());
    RegisterWorker other = lending("w-B", "n3", "host2", List.of(0), "GPU-cccc");
    assertTrue(gpu.leaseHolding(other).isEmpty(), "a GPU of its own is not held");
    gpu.register(other);
    assertEquals(1, gpu.snapshot("ok").workers().size());

    gpu.endLease(new JobCenter.Hold(lost.worker(), leaseEnds - 1));
    assertTrue(gpu.leaseHolding(again).isPresent(), "another lease's end releases nothing of this one");
    gpu.endLease(hold);
    assertTrue(gpu.leaseHolding(again).isEmpty());
    gpu.register(again);
    assertEquals(2, gpu.snapshot("ok").workers().get(1).vacantGpus().size(), "lent again once the lease ended");
    gpu.checkInvariants();
  }

  @Test
  void oneClientMayHaveOnlySoManyRequestsWaiting() {
    JobCenter<String> capped = new JobCenter<>(ClusterType.GPU, 8, 2, 1);
    capped.register(worker("w", "n", 4, List.of(0)));
    capped.submit(gpus("a", 1), "runs");
    assertTrue(capped.submit(gpus("a", 1), "waits-1").job().isEmpty());
    assertTrue(capped.submit(gpus("a", 1), "waits-2").job().isEmpty());
    Rejected over = assertThrows(Rejected.class, () -> capped.submit(gpus("a", 1), "over"));
    assertEquals(ErrorKind.INVALID, over.kind());
    assertTrue(over.getMessage().contains("jobs.maxWaitingPerClient in config/parl-limits.properties"), over.getMessage());
    assertTrue(capped.submit(gpus("b", 1), "another-client").job().isEmpty());
    assertEquals(2, capped.waitingOf("a"));
    capped.checkInvariants();
  }
}
