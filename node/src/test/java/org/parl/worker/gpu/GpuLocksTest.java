package org.parl.worker.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GpuLocksTest {

  @TempDir
  Path dir;

  private static GpuDevice gpu(int index, String uuid) {
    return new GpuDevice(index, uuid, "NVIDIA H100", 81_559, 0, 0);
  }

  @Test
  void aGpuClaimedOnceIsRefusedToASecondClaimNamingItsHolder() throws Exception {
    Path folder = dir.resolve("locks");
    try (GpuLocks first = GpuLocks.claim(folder, List.of(gpu(0, "GPU-aaaa"), gpu(1, "GPU-bbbb")), "worker w-A of the cluster at x:1")) {
      assertEquals("worker w-A of the cluster at x:1", Files.readString(folder.resolve("GPU-bbbb")));
      GpuLocks.Refused refused = assertThrows(GpuLocks.Refused.class,
          () -> GpuLocks.claim(folder, List.of(gpu(3, "GPU-cccc"), gpu(0, "GPU-bbbb")), "worker w-B"));
      assertEquals("GPU 0 (GPU-bbbb) is already lent by another worker on this host (worker w-A of the cluster at x:1): "
          + "one GPU is lent by one worker at a time; lend other GPUs with --gpus, or stop that worker first", refused.getMessage());
      assertFalse(Files.exists(folder.resolve("GPU-cccc")), "all or none: the refused claim gave up what it had taken");
      assertEquals("worker w-A of the cluster at x:1", Files.readString(folder.resolve("GPU-bbbb")), "the holder's file is untouched");
    }
    assertFalse(Files.exists(folder.resolve("GPU-aaaa")), "a released claim's file is removed");
    try (GpuLocks again = GpuLocks.claim(folder, List.of(gpu(0, "GPU-bbbb")), "worker w-B")) {
      assertEquals("worker w-B", Files.readString(folder.resolve("GPU-bbbb")));
    }
  }

  @Test
  void aUnitWithoutAUuidIsClaimedByItsIndexAndAPlantedLinkIsRefused() throws Exception {
    assertEquals("index-2", GpuLocks.name(gpu(2, null)));
    assertEquals("index-2", GpuLocks.name(gpu(2, "../../etc/passwd")), "a UUID that is no device name never reaches a path");
    assertEquals("MIG-1234-ab", GpuLocks.name(gpu(101, "MIG-1234-ab")));
    Path folder = Files.createDirectories(dir.resolve("locks"));
    Path target = Files.writeString(dir.resolve("victim"), "keep");
    Files.createSymbolicLink(folder.resolve("GPU-aaaa"), target);
    GpuLocks.Refused refused = assertThrows(GpuLocks.Refused.class,
        () -> GpuLocks.claim(folder, List.of(gpu(0, "GPU-aaaa")), "worker w-A"));
    assertTrue(refused.getMessage().startsWith("cannot claim this worker's GPUs in " + folder), refused.getMessage());
    assertEquals("keep", Files.readString(target), "the link's target is untouched");
  }

  @Test
  void theUnitsOfAWorkerAreThoseItLends() {
    assertEquals(List.of("GPU-a", "index-2"),
        GpuLocks.units(List.of(0, 2), List.of(gpu(0, "GPU-a"), gpu(1, "GPU-b"))).stream().map(GpuLocks::name).toList());
  }
}
