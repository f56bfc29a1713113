package org.parl.worker.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code nvidia-smi -L} as drivers print it, MIG instances under their GPU. */
class NvidiaSmiListTest {

  @Test
  void gpusAndTheirMigInstances() {
    List<NvidiaSmiList.Listed> l = NvidiaSmiList.parse("""
        GPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-5d5ba0d6-d33d-2b2c-524d-9e3d8d2b8a77)
          MIG 1g.5gb      Device  0: (UUID: MIG-c6d4f1ef-42e4-5de3-91c7-45d71585f0a2)
          MIG 2g.10gb     Device  1: (UUID: MIG-cba663e8-9bed-5b7e-b1e4-2a1b0ad1d0a3)
        GPU 1: NVIDIA A100-SXM4-40GB (UUID: GPU-0c1d2e3f-0000-1111-2222-333344445555)
        GPU 2: Tesla V100-SXM2-16GB (UUID: GPU-d8f6b3c2-(odd))
        GPU 3: NVIDIA A30 (UUID: GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee)
          MIG 1c.2g.12gb+me Device 12: (UUID: MIG-GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee/7/0)
        """);
    assertEquals(3, l.size(), "a line whose UUID has brackets is not a GPU line");
    assertEquals(new NvidiaSmiList.Listed(0, "NVIDIA A100-SXM4-40GB", "GPU-5d5ba0d6-d33d-2b2c-524d-9e3d8d2b8a77", List.of(
        new NvidiaSmiList.MigInstance("1g.5gb", 0, "MIG-c6d4f1ef-42e4-5de3-91c7-45d71585f0a2"),
        new NvidiaSmiList.MigInstance("2g.10gb", 1, "MIG-cba663e8-9bed-5b7e-b1e4-2a1b0ad1d0a3"))), l.get(0));
    assertEquals(List.of(), l.get(1).migs());
    assertEquals(List.of(new NvidiaSmiList.MigInstance("1c.2g.12gb+me", 12, "MIG-GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee/7/0")),
        l.get(2).migs(), "the MIG UUID of drivers before R470");
  }

  @Test
  void linesOfNoGpuAreSkipped() {
    List<NvidiaSmiList.Listed> l = NvidiaSmiList.parse("""
          MIG 1g.5gb      Device  0: (UUID: MIG-before-any-gpu)
        Unable to determine the device handle for gpu 0000:3B:00.0: GPU is lost.  Reboot the system to recover this GPU
        GPU 1: Tesla T4 (UUID: GPU-1)
        No devices were found
        """);
    assertEquals(List.of(new NvidiaSmiList.Listed(1, "Tesla T4", "GPU-1", List.of())), l);
  }
}
