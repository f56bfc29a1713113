package org.parl.worker.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.parl.control.JobCenterRequest.GpuCondition;

class GpuHealthWatchTest {

  private static GpuDevice gpu(int index, String uuid) {
    return new GpuDevice(index, uuid, "Fake", 16_000, 0, 0);
  }

  private static final List<GpuDevice> REGISTERED = List.of(gpu(0, "GPU-a"), gpu(1, "GPU-b"));

  private static final GpuHealth ECC = new GpuHealth(GpuHealth.State.FAULTY, "uncorrected volatile ECC errors: 2");

  @Test
  void aChangeOfHealthIsReportedOnce() {
    GpuHealthWatch watch = new GpuHealthWatch("w-1", List.of(0, 1), REGISTERED);
    GpuInventory.Reading healthy = GpuInventory.Reading.of(List.of(gpu(0, "GPU-a"), gpu(1, "GPU-b")));
    assertEquals(Optional.empty(), watch.next(healthy), "all healthy, as the JobCenter assumes at registration");
    GpuInventory.Reading faulty = GpuInventory.Reading.of(List.of(gpu(0, "GPU-a"), gpu(1, "GPU-b").withHealth(ECC)));
    List<GpuCondition> report = watch.next(faulty).orElseThrow();
    assertEquals(List.of(new GpuCondition(0, true, "GPU-a", null),
        new GpuCondition(1, false, "GPU-b", "uncorrected volatile ECC errors: 2")), report);
    assertEquals(report, watch.next(faulty).orElseThrow(), "not taken yet: reported again");
    watch.told(report);
    assertEquals(Optional.empty(), watch.next(faulty));
    assertEquals(Optional.empty(), watch.next(GpuInventory.Reading.failed("nvidia-smi hangs")), "a failed reading says nothing");
    assertTrue(watch.next(healthy).orElseThrow().stream().allMatch(GpuCondition::healthy));
    watch.registered();
    assertEquals(Optional.empty(), watch.next(healthy));
  }

  @Test
  void aGpuGoneFromTheInventoryIsReportedFaulty() {
    GpuHealthWatch watch = new GpuHealthWatch("w-1", List.of(0, 1), REGISTERED);
    List<GpuCondition> report = watch.next(GpuInventory.Reading.of(List.of(gpu(0, "GPU-a")))).orElseThrow();
    assertEquals(new GpuCondition(1, false, "GPU-b", "inventory changed: GPU 1 (GPU-b) is gone"), report.get(1));
    assertTrue(report.get(0).healthy());
  }
}
