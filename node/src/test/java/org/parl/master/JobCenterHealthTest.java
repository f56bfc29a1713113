package org.parl.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.parl.control.ClusterType;
import org.parl.control.JobCenterRequest.Allocate;
import org.parl.control.JobCenterRequest.GpuCondition;
import org.parl.control.JobCenterRequest.GpuHealth;
import org.parl.control.JobCenterRequest.RegisterWorker;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.gateway.Job;
import org.parl.internal.wire.gateway.WorkerState;

/** Quarantine of faulty GPUs in the JobCenter (docs/contract.md §11). */
class JobCenterHealthTest {

  private static final long S = 1_000_000_000L;
  private final JobCenter<String> gpu = new JobCenter<>(ClusterType.GPU, 8);

  JobCenterHealthTest() {
    gpu.register(new RegisterWorker("w", "n", "host", "127.0.0.1", 4, List.of(0, 1), List.of()));
  }

  private static Allocate gpus(String client, int n) {
    return new Allocate(client, 0, n, 0, 1000, "A", "?");
  }

  private static GpuHealth report(boolean gpu1Healthy) {
    return new GpuHealth("w", "n", true, List.of(new GpuCondition(0, true, "GPU-0", null),
        gpu1Healthy ? new GpuCondition(1, true, "GPU-1", null)
            : new GpuCondition(1, false, "GPU-1", "uncorrected volatile ECC errors: 2")));
  }

  private WorkerState state() {
    return gpu.workerState("w").orElseThrow();
  }

  @Test
  void aFaultyGpuLeavesTheVacantListAndItsJobsAreReturned() {
    Job onZero = gpu.submit(gpus("c", 1), "a").job().orElseThrow();
    Job onOne = gpu.submit(gpus("c", 1), "b").job().orElseThrow();
    assertEquals(List.of(1), onOne.gpus());
    List<JobCenter.Quarantined> q = gpu.gpuHealth(report(false), 0);
    assertEquals(1, q.size());
    assertEquals(1, q.get(0).fault().index());
    assertEquals("GPU-1", q.get(0).fault().uuid());
    assertEquals("uncorrected volatile ECC errors: 2", q.get(0).fault().fault());
    assertEquals(List.of(onOne), q.get(0).jobs(), "the job on the faulty GPU is returned, not the other one");
    assertTrue(gpu.gpuHealth(report(false), S).isEmpty(), "a GPU quarantined already is not quarantined again");
    gpu.end(onOne.jobId());
    gpu.end(onZero.jobId());
    WorkerState w = state();
    assertEquals(List.of(0), w.vacantGpus());
    assertEquals(List.of(1), w.outOfServiceGpus());
    WorkerState.GpuShare share = w.gpuShares().get(1);
    assertTrue(share.quarantined());
    assertEquals("uncorrected volatile ECC errors: 2", share.fault());
    gpu.submit(gpus("c", 1), "on-zero").job().orElseThrow();
    assertTrue(gpu.submit(gpus("c", 1), "waits").job().isEmpty(), "nothing is placed on a quarantined GPU");
    gpu.checkInvariants();
  }

  @Test
  void aQuarantinedGpuComesBackOnlyAfterItsHealthyTime() {
    gpu.gpuHealth(report(false), 0);
    gpu.submit(gpus("c", 1), "on-zero").job().orElseThrow();
    assertTrue(gpu.submit(gpus("c", 1), "waits").job().isEmpty());
    gpu.gpuHealth(report(true), 10 * S);
    long healthy = gpu.healthyAfterMs() * 1_000_000L;
    assertTrue(gpu.restoreHealthy(10 * S + healthy - S).isEmpty(), "not back before it was healthy long enough");
    assertTrue(state().gpuShares().get(1).quarantined());
    gpu.gpuHealth(report(false), 10 * S + healthy - S / 2);
    gpu.gpuHealth(report(true), 20 * S + healthy);
    assertTrue(gpu.restoreHealthy(20 * S + 2 * healthy - S).isEmpty(), "a new fault restarts the clock");
    assertEquals(1, gpu.restoreHealthy(20 * S + 2 * healthy).size());
    assertEquals(List.of(1), state().vacantGpus());
    assertEquals(null, state().gpuShares().get(1).fault());
    List<JobCenter.Granted<String>> granted = gpu.drain();
    assertEquals("waits", granted.get(0).handle());
    assertEquals(List.of(1), granted.get(0).job().gpus());
    gpu.checkInvariants();
  }

  @Test
  void undrainLiftsAQuarantineByHand() {
    gpu.gpuHealth(report(false), 0);
    assertTrue(gpu.quarantined("w", 1).isPresent());
    assertEquals(List.of(0), state().vacantGpus());
    gpu.drain("w", 1, false);
    assertTrue(gpu.quarantined("w", 1).isEmpty());
    assertEquals(List.of(0, 1), state().vacantGpus());
    assertTrue(gpu.restoreHealthy(Long.MAX_VALUE / 2).isEmpty(), "nothing left to restore");
    gpu.checkInvariants();
  }

  @Test
  void onlyTheWorkersOwnNodeMayReport() {
    GpuHealth stranger = new GpuHealth("w", "other-node", true, List.of(new GpuCondition(1, false, null, "lost")));
    assertEquals(ErrorKind.NOT_FOUND, assertThrows(Rejected.class, () -> gpu.gpuHealth(stranger, 0)).kind());
    GpuHealth unknown = new GpuHealth("nobody", "n", true, List.of(new GpuCondition(1, false, null, "lost")));
    assertEquals(ErrorKind.NOT_FOUND, assertThrows(Rejected.class, () -> gpu.gpuHealth(unknown, 0)).kind());
    assertEquals(List.of(0, 1), state().vacantGpus());
  }

  @Test
  void aGpuTheWorkerDoesNotLendIsIgnored() {
    assertTrue(gpu.gpuHealth(new GpuHealth("w", "n", false, List.of(new GpuCondition(7, false, null, "lost"))), 0).isEmpty());
    gpu.checkInvariants();
  }
}
