package org.parl.worker.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a GPU job is given: CUDA_VISIBLE_DEVICES by index, MIG instances by UUID, and the UUIDs to check. */
class GpuAllocationTest {

  private static final List<GpuDevice> DEVICES = List.of(new GpuDevice(1, "GPU-1", "H100", 81559, 0, 0),
      new GpuDevice(100, "MIG-x", "1g.10gb", 10240, 0, 0, GpuHealth.HEALTHY, Optional.of(new GpuDevice.Mig(0, "GPU-0", 0))));

  @Test
  void wholeGpusByIndexMigInstancesByUuid() {
    GpuAllocation a = new GpuAllocation(DEVICES);
    assertEquals("1", a.visibleDevices(List.of(1)));
    assertEquals("MIG-x", a.visibleDevices(List.of(100)));
    assertEquals("", a.visibleDevices(List.of()));
    assertEquals(List.of("MIG-x", "GPU-1"), a.uuids(List.of(100, 1)));
  }

  @Test
  void uuidModeNamesEveryUnitThatHasAUuidByIt() {
    GpuAllocation a = new GpuAllocation(DEVICES, true);
    assertEquals("GPU-1,MIG-x", a.visibleDevices(List.of(1, 100)));
    assertEquals("GPU-1,7", a.visibleDevices(List.of(1, 7)), "an id the inventory does not describe keeps its index");
  }

  @Test
  void anIdWithoutAnInventoryHasNoUuidToCheck() {
    GpuAllocation a = new GpuAllocation(DEVICES);
    assertEquals("1,7", a.visibleDevices(List.of(1, 7)));
    assertEquals(List.of(), a.uuids(List.of(1, 7)));
    assertEquals("3", GpuAllocation.none().visibleDevices(List.of(3)));
  }
}
