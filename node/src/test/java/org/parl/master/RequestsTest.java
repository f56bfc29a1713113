package org.parl.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.parl.control.ClusterType;
import org.parl.scheduler.ResourceRequest;
import org.parl.wire.ErrorKind;
import org.parl.wire.gateway.ActorResources;

/** What a create asks for, checked by the rules of the cluster's kind before the pool sees it. */
class RequestsTest {

  private static ActorResources ask(int cpus, int gpus, int share, long memoryMb, String model) {
    return new ActorResources(cpus, gpus, share, memoryMb, model, 0);
  }

  @Test
  void aModelWithoutAnAmountIsRefusedWithTheWayToAskOnGpuAndMixedClusters() {
    for (ClusterType type : new ClusterType[] {ClusterType.GPU, ClusterType.MIXED}) {
      Rejected r = assertThrows(Rejected.class, () -> Requests.validate(type, 8, ask(1, 0, 0, 0, "A100")));
      assertEquals(ErrorKind.INVALID, r.kind());
      assertTrue(r.getMessage().contains("not how much of one") && r.getMessage().contains(".gpus(1).gpuModel(\"A100\")"),
          r.getMessage());
    }
    Rejected cpu = assertThrows(Rejected.class, () -> Requests.validate(ClusterType.CPU, 8, ask(1, 0, 0, 0, "A100")));
    assertEquals(ErrorKind.MISMATCH, cpu.kind());
    assertTrue(cpu.getMessage().contains("a GPU of model A100"), cpu.getMessage());
  }

  @Test
  void aModelWithAnAmountIsPlacedWithIt() {
    assertEquals(new ResourceRequest(0, 1, 0, 0, "A100"), Requests.validate(ClusterType.GPU, 8, ask(0, 1, 0, 0, "A100")));
    assertEquals(new ResourceRequest(2, 0, 250, 0, "A100"), Requests.validate(ClusterType.MIXED, 8, ask(2, 0, 250, 0, "A100")));
    assertEquals(new ResourceRequest(0, 0, 0, 4096, "A100"), Requests.validate(ClusterType.GPU, 8, ask(0, 0, 0, 4096, "A100")));
  }
}
