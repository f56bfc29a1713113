package org.parl.worker.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A worker's inventory compared with the one it registered with: every difference is named. */
class InventoryChangeTest {

  private static GpuDevice gpu(int index, String uuid) {
    return new GpuDevice(index, uuid, "A100", 40960, 0, 0);
  }

  private static final List<GpuDevice> REGISTERED = List.of(gpu(0, "GPU-a"), gpu(1, "GPU-b"), gpu(2, "GPU-c"));

  @Test
  void theSameUnitsAreNoChangeWhateverTheirHealthAndFigures() {
    List<GpuDevice> now = List.of(gpu(0, "GPU-a"),
        new GpuDevice(1, "GPU-b", "A100", 40960, 999, 50, GpuHealth.lost("GPU is lost"), Optional.empty()), gpu(2, "GPU-c"),
        gpu(3, "GPU-new"));
    InventoryChange c = InventoryChange.compare(REGISTERED, now);
    assertTrue(c.isEmpty(), c.describe());
    assertEquals("none", c.describe());
  }

  @Test
  void aLostGpuWhoseUuidCannotBeReadIsStillWhereItWas() {
    List<GpuDevice> now = List.of(gpu(0, "GPU-a"), gpu(1, "").withHealth(GpuHealth.lost("GPU is lost")), gpu(2, "GPU-c"));
    assertTrue(InventoryChange.compare(REGISTERED, now).isEmpty());
  }

  @Test
  void goneMovedAndReplacedAreTold() {
    List<GpuDevice> now = List.of(gpu(0, "GPU-c"), gpu(1, "GPU-x"));
    InventoryChange c = InventoryChange.compare(REGISTERED, now);
    assertEquals(List.of(new InventoryChange.Gone(0, "GPU-a"), new InventoryChange.Replaced(1, "GPU-b", "GPU-x"),
        new InventoryChange.Moved("GPU-c", 2, 0)), c.differences());
    assertEquals("GPU 0 (GPU-a) is gone; GPU 1 was GPU-b and is now GPU-x; GPU-c moved from GPU 2 to GPU 0", c.describe());
  }

  @Test
  void aNewMigLayoutIsAChangeOfItsUnits() {
    GpuDevice.Mig parent = new GpuDevice.Mig(0, "GPU-p", 0);
    List<GpuDevice> registered = List.of(new GpuDevice(100, "MIG-a", "1g.10gb", 10240, 0, 0, GpuHealth.HEALTHY, Optional.of(parent)));
    List<GpuDevice> now = List.of(new GpuDevice(100, "MIG-z", "3g.40gb", 40960, 0, 0, GpuHealth.HEALTHY, Optional.of(parent)));
    assertEquals(List.of(new InventoryChange.Replaced(100, "MIG-a", "MIG-z")), InventoryChange.compare(registered, now).differences());
    assertEquals(List.of(new InventoryChange.Gone(100, "MIG-a")), InventoryChange.compare(registered, List.of(gpu(0, "GPU-p")))
        .differences(), "MIG mode turned off: the instance is gone");
  }

  @Test
  void sinceRegistrationOnlyOnAGoodReading() {
    assertEquals(Optional.of(new InventoryChange(List.of(new InventoryChange.Gone(2, "GPU-c")))),
        InventoryChange.since(REGISTERED, GpuInventory.Reading.of(List.of(gpu(0, "GPU-a"), gpu(1, "GPU-b")))));
    assertEquals(Optional.empty(), InventoryChange.since(REGISTERED, GpuInventory.Reading.failed("nvidia-smi hangs")));
    assertEquals(Optional.empty(), InventoryChange.since(REGISTERED, new GpuInventory.Reading(List.of(), Optional.of("x"), true)));
  }
}
