package org.parl.worker.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.parl.internal.wire.gateway.WorkerState.GpuCard;

/** What a worker tells the JobCenter of the units it lends. */
class GpuDeviceTest {

  @Test
  void aCardCarriesWhatNvidiaSmiDescribed() {
    GpuDevice mig = new GpuDevice(100, "MIG-x", "1g.10gb", 10240, 12, 3,
        new GpuHealth(GpuHealth.State.FAULTY, "pending row remaps"), Optional.of(new GpuDevice.Mig(0, "GPU-0", 0)));
    assertEquals(new GpuCard(100, "MIG-x", "1g.10gb", 10240, 12, 3), mig.card());
  }
}
