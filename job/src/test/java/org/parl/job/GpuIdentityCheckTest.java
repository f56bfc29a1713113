package org.parl.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.parl.internal.wire.JobControl.GpuMismatch;
import org.parl.internal.wire.JobControlCodec;

/** The GPU identity check against a driver that shows what the test says. */
class GpuIdentityCheckTest {

  private static final String A = "GPU-fa4e0000-0000-0000-0000-000000000000";
  private static final String B = "GPU-fa4e0000-0000-0000-0000-000000000001";
  private static final String HEX_A = "fa4e0000000000000000000000000000";
  private static final String HEX_B = "fa4e0000000000000000000000000001";

  private final List<GpuMismatch> reported = new ArrayList<>();
  private final AtomicInteger reads = new AtomicInteger();

  private GpuIdentityCheck check(List<String> expected, CudaDevices.Seen seen) {
    return new GpuIdentityCheck(expected, "0,1", () -> {
      reads.incrementAndGet();
      return seen;
    }, reported::add);
  }

  @Test
  void theAllocationSeenPassesInAnyOrderAndRunsOnce() {
    GpuIdentityCheck c = check(List.of(B, A), new CudaDevices.Seen(List.of(HEX_A, HEX_B), true));
    assertTrue(c.applies());
    GpuIdentityCheck.Result r = c.result();
    assertEquals(GpuIdentityCheck.Outcome.PASSED, r.outcome(), r.message());
    assertEquals(List.of(A, B), r.seen());
    assertEquals(r, c.result());
    assertEquals(1, reads.get(), "a process keeps its devices: the driver is asked once");
    assertEquals(List.of(), reported);
    assertTrue(System.getProperty(GpuIdentityCheck.PROPERTY).startsWith("passed: "));
  }

  @Test
  void anotherDeviceFailsWithBothListsAndIsReportedOnce() {
    GpuIdentityCheck c = check(List.of(A), new CudaDevices.Seen(List.of(HEX_B), true));
    GpuIdentityCheck.Result r = c.result();
    assertEquals(List.of(), reported, "reported at a create, which names the job");
    assertEquals(GpuIdentityCheck.Outcome.FAILED, r.outcome());
    assertEquals("GPU identity check failed: the CUDA driver shows [" + B + "] but this job was allocated [" + A
        + "] (CUDA_VISIBLE_DEVICES=0,1)", r.message());
    assertEquals(r, c.forCreate());
    c.forCreate();
    assertEquals(List.of(new GpuMismatch(List.of(A), List.of(B))), reported);
    assertEquals(new GpuMismatch(List.of(A), List.of(B)), JobControlCodec.toWorker(JobControlCodec.encode(reported.get(0))),
        "it travels to the worker as it is");
  }

  @Test
  void noDeviceOrOneMoreIsAMismatch() {
    assertTrue(check(List.of(A), new CudaDevices.Seen(List.of(), true)).result().message().contains("shows no device but"));
    assertEquals(GpuIdentityCheck.Outcome.FAILED,
        check(List.of(A), new CudaDevices.Seen(List.of(HEX_A, HEX_B), true)).result().outcome());
  }

  @Test
  void withoutADriverTheCheckIsSkipped() {
    GpuIdentityCheck c = new GpuIdentityCheck(List.of(A), "0", () -> {
      throw new CudaDevices.Unavailable("libcuda.so.1 cannot be loaded (not found)");
    }, reported::add);
    GpuIdentityCheck.Result r = c.forCreate();
    assertEquals(GpuIdentityCheck.Outcome.SKIPPED, r.outcome());
    assertEquals("GPU identity check skipped: libcuda.so.1 cannot be loaded (not found)", r.message());
    assertEquals(List.of(), reported);
  }

  @Test
  void aFailingDriverFailsTheCheck() {
    GpuIdentityCheck c = new GpuIdentityCheck(List.of(A), "0", () -> {
      throw new CudaDevices.DriverError("cuInit failed with CUDA error 999");
    }, reported::add);
    assertEquals(GpuIdentityCheck.Outcome.FAILED, c.result().outcome());
    assertTrue(c.result().message().contains("cuInit failed with CUDA error 999"), c.result().message());
  }

  @Test
  void migInstancesNeedTheV2CallAndAreShownAsMig() {
    String mig = "MIG-c6d4f1ef-42e4-5de3-91c7-45d71585f0a2";
    String hex = "c6d4f1ef42e45de391c745d71585f0a2";
    assertEquals(GpuIdentityCheck.Outcome.PASSED, check(List.of(mig), new CudaDevices.Seen(List.of(hex), true)).result().outcome());
    assertEquals(GpuIdentityCheck.Outcome.SKIPPED, check(List.of(mig), new CudaDevices.Seen(List.of(hex), false)).result().outcome());
    assertEquals(GpuIdentityCheck.Outcome.SKIPPED,
        check(List.of("MIG-GPU-5d5ba0d6-d33d-2b2c-524d-9e3d8d2b8a77/7/0"), new CudaDevices.Seen(List.of(hex), true)).result().outcome(),
        "the MIG names of drivers before R470 are no 16 bytes");
  }

  @Test
  void uuidsAreFormattedAsNvidiaSmiPrintsThem() {
    assertEquals("GPU-5d5ba0d6-d33d-2b2c-524d-9e3d8d2b8a77", GpuIdentityCheck.format("5d5ba0d6d33d2b2c524d9e3d8d2b8a77", false));
    assertEquals("5d5ba0d6d33d2b2c524d9e3d8d2b8a77", GpuIdentityCheck.body("GPU-5D5BA0D6-D33D-2B2C-524D-9E3D8D2B8A77"));
    assertNull(GpuIdentityCheck.body("GPU-a"));
    assertTrue(!check(List.of(), new CudaDevices.Seen(List.of(), true)).applies(), "a CPU job checks nothing");
  }
}
