package org.parl.worker.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The units a worker lends: whole GPUs, and MIG instances by the index rule. */
class GpuUnitsTest {

  private static final GpuHealth ECC = new GpuHealth(GpuHealth.State.FAULTY, "uncorrected volatile ECC errors: 1");

  private static NvidiaSmiList.Listed listed(int index, String uuid, NvidiaSmiList.MigInstance... migs) {
    return new NvidiaSmiList.Listed(index, "A100", uuid, List.of(migs));
  }

  @Test
  void theIndexRuleDependsOnlyOnTheParentAndTheDeviceNumber() {
    assertEquals(100, GpuUnits.migIndex(0, 0));
    assertEquals(103, GpuUnits.migIndex(0, 3));
    assertEquals(206, GpuUnits.migIndex(1, 6));
  }

  @Test
  void aParentInMigModeIsReplacedByItsInstancesWhichShareItsHealth() {
    List<GpuDevice> physical = List.of(new GpuDevice(0, "GPU-0", "A100", 40960, 0, 0),
        new GpuDevice(1, "GPU-1", "A100", 40960, 0, 0, ECC, Optional.empty()),
        new GpuDevice(2, "GPU-2", "A100", 40960, 0, 0));
    List<GpuDevice> units = GpuUnits.of(physical, List.of(listed(0, "GPU-0"),
        listed(1, "GPU-1", new NvidiaSmiList.MigInstance("1g.10gb", 2, "MIG-b"), new NvidiaSmiList.MigInstance("3g.40gb", 0, "MIG-a")),
        listed(2, "GPU-2")));
    assertEquals(List.of(0, 202, 200, 2), units.stream().map(GpuDevice::index).toList(), "in the order of the listing");
    assertEquals(new GpuDevice(202, "MIG-b", "1g.10gb", 10240, 0, 0, ECC, Optional.of(new GpuDevice.Mig(1, "GPU-1", 2))),
        units.get(1));
  }

  @Test
  void profilesGiveTheirMemory() {
    assertEquals(5 * 1024, GpuUnits.profileMb("1g.5gb"));
    assertEquals(20 * 1024, GpuUnits.profileMb("1c.3g.20gb"));
    assertEquals(12 * 1024, GpuUnits.profileMb("2g.12gb+me"));
    assertEquals(0, GpuUnits.profileMb("weird"));
  }

  @Test
  void withoutMigIndicesStayAsTheyAre() {
    List<GpuDevice> physical = List.of(new GpuDevice(150, "GPU-x", "H100", 1, 0, 0));
    assertEquals(physical, GpuUnits.of(physical, List.of()));
  }

  @Test
  void aGpuIndexTheRuleWouldCollideWithIsRefused() {
    List<GpuDevice> physical = List.of(new GpuDevice(0, "GPU-0", "A100", 1, 0, 0), new GpuDevice(100, "GPU-x", "A100", 1, 0, 0));
    assertThrows(IllegalStateException.class,
        () -> GpuUnits.of(physical, List.of(listed(0, "GPU-0", new NvidiaSmiList.MigInstance("1g.5gb", 0, "MIG-a")))));
  }
}
