package org.parl.worker.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What nvidia-smi prints on hosts and drivers that differ, and what parl makes of it. */
class NvidiaSmiCsvTest {

  private static GpuInventory.Reading parse(String... lines) {
    return NvidiaSmiCsv.parse(String.join("\n", lines));
  }

  private static void assertProblem(GpuInventory.Reading r, String expected) {
    assertTrue(r.problem().isPresent(), "expected a problem, got " + r.devices());
    assertTrue(r.problem().get().contains(expected), r.problem().get());
    assertEquals(List.of(), r.devices(), "a reading with a problem lists no device");
    assertFalse(r.stale());
  }

  @Test
  void theQueriedFormat() {
    GpuInventory.Reading r = parse("0, GPU-aaa, NVIDIA H100 80GB HBM3, 81559, 512, 3",
        "1, GPU-bbb, NVIDIA H100 80GB HBM3, 81559, 612, 97");
    assertEquals(List.of(0, 1), r.ids());
    assertEquals(new GpuDevice(1, "GPU-bbb", "NVIDIA H100 80GB HBM3", 81559, 612, 97), r.devices().get(1));
    assertTrue(r.problem().isEmpty());
  }

  @Test
  void blankLinesWindowsLineEndsAndExtraSpacesAreFine() {
    GpuInventory.Reading r = NvidiaSmiCsv.parse("\n  \r\n   2 ,   GPU-c  ,  Tesla T4 ,15360 ,   0,0   \r\n\n\n");
    assertEquals(List.of(new GpuDevice(2, "GPU-c", "Tesla T4", 15360, 0, 0)), r.devices());
  }

  @Test
  void figuresAGpuDoesNotReportCountAsZero() {
    GpuInventory.Reading r = parse("0, GPU-a, NVIDIA GeForce GTX 1080, 8192, [N/A], [Not Supported]",
        "1, GPU-b, Some GPU, [N/A], 10, [N/A]");
    assertEquals(new GpuDevice(0, "GPU-a", "NVIDIA GeForce GTX 1080", 8192, 0, 0), r.devices().get(0));
    assertEquals(new GpuDevice(1, "GPU-b", "Some GPU", 0, 10, 0), r.devices().get(1));
  }

  @Test
  void aHeaderLineAndUnitsAreTolerated() {
    GpuInventory.Reading r = parse("index, uuid, name, memory.total [MiB], memory.used [MiB], utilization.gpu [%]",
        "0, GPU-a, A100, 40960 MiB, 1024 MiB, 45 %");
    assertEquals(List.of(new GpuDevice(0, "GPU-a", "A100", 40960, 1024, 45)), r.devices());
  }

  @Test
  void aNameWithCommasKeepsThemAndTheFiguresAfterIt() {
    GpuInventory.Reading r = parse("3, GPU-d, Vendor, Model X, rev 2, 1000, 10, 5");
    assertEquals(List.of(new GpuDevice(3, "GPU-d", "Vendor, Model X, rev 2", 1000, 10, 5)), r.devices());
  }

  @Test
  void missingColumnsAreAProblem() {
    assertProblem(parse("0, GPU-a, A100, 40960, 1024", "1, GPU-b, A100, 40960, 1024, 0"), "unexpected nvidia-smi line: 0, GPU-a");
  }

  @Test
  void nonNumericValuesAreAProblem() {
    assertProblem(parse("zero, GPU-a, A100, 40960, 1024, 0"), "unexpected nvidia-smi line");
    assertProblem(parse("0, GPU-a, A100, lots, 1024, 0"), "unexpected nvidia-smi line");
    assertProblem(parse("0, GPU-a, A100, 40960, 1024, 1.2.3"), "unexpected nvidia-smi line");
    assertProblem(parse("-1, GPU-a, A100, 40960, 1024, 0"), "unexpected nvidia-smi line");
  }

  @Test
  void theSameIndexTwiceIsAProblemNotTwoGpus() {
    assertProblem(parse("0, GPU-a, A100, 40960, 1024, 0", "0, GPU-b, A100, 40960, 1024, 0"), "listed GPU 0 twice");
  }

  @Test
  void anErrorMessageOnStdoutIsAProblem() {
    assertProblem(parse("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
        + "Make sure that the latest NVIDIA driver is installed and running."), "NVIDIA-SMI has failed");
    assertProblem(parse("No devices were found"), "No devices were found");
  }

  @Test
  void noOutputIsNoGpu() {
    GpuInventory.Reading r = parse("");
    assertEquals(List.of(), r.devices());
    assertTrue(r.problem().isEmpty());
  }

  private static GpuInventory.Reading withHealth(String... lines) {
    return NvidiaSmiCsv.parse(String.join("\n", lines), true);
  }

  @Test
  void healthFieldsNameEachFault() {
    GpuInventory.Reading r = withHealth("0, GPU-a, A100, 40960, 0, 0, 0, No, No",
        "1, GPU-b, A100, 40960, 0, 0, 2, No, No",
        "2, GPU-c, A100, 40960, 0, 0, 0, Yes, No",
        "3, GPU-d, A100, 40960, 0, 0, 1, Yes, Yes");
    assertEquals(GpuHealth.HEALTHY, r.devices().get(0).health());
    assertEquals(new GpuHealth(GpuHealth.State.FAULTY, "uncorrected volatile ECC errors: 2"), r.devices().get(1).health());
    assertEquals("pending retired pages", r.devices().get(2).health().fault());
    assertEquals("uncorrected volatile ECC errors: 1; pending retired pages; pending row remaps", r.devices().get(3).health().fault());
    assertEquals(new GpuDevice(1, "GPU-b", "A100", 40960, 0, 0, r.devices().get(1).health(), java.util.Optional.empty()),
        r.devices().get(1), "the figures are read as before");
  }

  @Test
  void healthFieldsAGpuDoesNotSupportCountAsHealthy() {
    GpuInventory.Reading r = withHealth("0, GPU-a, GeForce, GTX 1080, 8192, 10, 3, [N/A], [N/A], [Not Supported]",
        "1, GPU-b, T4, 15360, 0, 0, [Not Supported], No, [N/A]");
    assertEquals(List.of(0, 1), r.ids());
    assertEquals("GeForce, GTX 1080", r.devices().get(0).name());
    assertTrue(r.devices().stream().allMatch(d -> d.health().healthy()));
  }

  @Test
  void aLostGpuIsADeviceOfItsIndexThatIsLost() {
    GpuInventory.Reading r = withHealth("0, GPU-a, A100, 40960, 0, 0, 0, No, No",
        "1, [GPU is lost], [GPU is lost], [GPU is lost], [GPU is lost], [GPU is lost], [GPU is lost], [GPU is lost], [GPU is lost]",
        "2, GPU-c, [Unknown Error], [Unknown Error], [Unknown Error], [Unknown Error], [Unknown Error], [Unknown Error], x");
    assertTrue(r.problem().isEmpty(), r.problem().toString());
    assertEquals(GpuHealth.State.LOST, r.devices().get(1).health().state());
    assertEquals("", r.devices().get(1).uuid(), "unread");
    assertEquals("GPU-c", r.devices().get(2).uuid(), "a UUID still readable is kept");
    assertEquals(GpuHealth.State.LOST, r.devices().get(2).health().state());
  }

  @Test
  void aGpuWithoutAHandleIsKeptAsUnreadable() {
    String line = "Unable to determine the device handle for GPU0000:3B:00.0: Unknown Error";
    GpuInventory.Reading r = withHealth("0, GPU-a, A100, 40960, 0, 0, 0, No, No", line);
    assertEquals(List.of(0), r.ids());
    assertEquals(List.of(line), r.unreadable());
    assertTrue(NvidiaSmiCsv.saysLost(line));
    assertFalse(NvidiaSmiCsv.saysLost("0, GPU-a, A100, 40960, 0, 0, 0, No, No"));
  }

  @Test
  void aHealthQueryRowWithoutItsHealthFieldsIsAProblem() {
    assertProblem(withHealth("0, GPU-a, A100, 40960, 0, 0"), "unexpected nvidia-smi line");
  }
}
