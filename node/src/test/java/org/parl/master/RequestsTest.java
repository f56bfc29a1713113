package org.parl.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.parl.control.ClusterType;
import org.parl.internal.resources.ResourceRequest;
import org.parl.internal.wire.ErrorKind;

/** What a create asks for, admitted by the rules of the cluster's kind before the pool sees it. */
class RequestsTest {

  private static ResourceRequest ask(int cpus, int gpus, int share, long memoryMb, String model) {
    return new ResourceRequest(cpus, gpus, share, memoryMb, model, 256);
  }

  private static Rejected refused(ClusterType type, ResourceRequest r) {
    return assertThrows(Rejected.class, () -> Requests.admit(type, 8, r));
  }

  @Test
  void aCpuClusterRefusesEveryAskForGpuNamingIt() {
    for (ResourceRequest r : new ResourceRequest[] {ask(1, 2, 0, 0, null), ask(1, 0, 250, 0, null), ask(1, 0, 0, 512, "A100")}) {
      Rejected e = refused(ClusterType.CPU, r);
      assertEquals(ErrorKind.MISMATCH, e.kind());
      assertTrue(e.getMessage().startsWith("this is a CPU cluster and the actor asks for " + r.gpuWords() + ": ask for CPUs"),
          e.getMessage());
    }
    assertTrue(refused(ClusterType.CPU, ask(0, 0, 250, 0, null)).getMessage().contains("asks for 0.25 of a GPU"));
    assertEquals(ResourceRequest.ofCpus(2), Requests.admit(ClusterType.CPU, 8, ask(2, 0, 0, 0, null)));
  }

  @Test
  void aGpuClusterRefusesCpuOnlyAsksAndTooManyGpus() {
    Rejected cpu = refused(ClusterType.GPU, ask(1, 0, 0, 0, null));
    assertEquals(ErrorKind.MISMATCH, cpu.kind());
    assertTrue(cpu.getMessage().contains("this is a GPU cluster and the actor asks for no GPUs"), cpu.getMessage());
    for (ClusterType type : new ClusterType[] {ClusterType.GPU, ClusterType.MIXED}) {
      Rejected many = refused(type, ask(1, 9, 0, 0, null));
      assertEquals(ErrorKind.INVALID, many.kind());
      assertTrue(many.getMessage().contains("at most 8 GPUs and this one asks for 9"), many.getMessage());
    }
  }

  @Test
  void aModelWithAnAmountIsPlacedWithItAndTheMemoryLimitStaysWithTheJob() {
    assertEquals(new ResourceRequest(0, 1, 0, 0, "A100"), Requests.admit(ClusterType.GPU, 8, ask(1, 1, 0, 0, "A100")));
    assertEquals(new ResourceRequest(2, 0, 250, 0, "A100"), Requests.admit(ClusterType.MIXED, 8, ask(2, 0, 250, 0, "A100")));
    assertEquals(new ResourceRequest(0, 0, 0, 4096, "A100"), Requests.admit(ClusterType.GPU, 8, ask(0, 0, 0, 4096, "A100")));
    assertEquals(ResourceRequest.ofCpus(1), Requests.admit(ClusterType.MIXED, 8, ask(1, 0, 0, 0, null)));
  }
}
