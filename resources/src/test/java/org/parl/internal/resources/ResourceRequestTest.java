package org.parl.internal.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A request is well-formed once built, and each wrong one is refused with its own sentence. */
class ResourceRequestTest {

  private static void refused(String expected, Runnable build) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, build::run, expected);
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }

  @Test
  void negativeAmountsAreRefusedNamingEachAmount() {
    refused("must not be negative (cpus=-1, gpus=0, gpuShare=0, gpuMemoryMb=0, maxMemoryMb=0)", () -> new ResourceRequest(-1, 0));
    refused("gpus=-2", () -> new ResourceRequest(1, -2));
    refused("gpuShare=-5", () -> new ResourceRequest(0, 0, -5, 0, null));
    refused("gpuMemoryMb=-1", () -> new ResourceRequest(0, 0, 0, -1, null));
    refused("maxMemoryMb=-1", () -> new ResourceRequest(1, 0, 0, 0, null, -1));
  }

  @Test
  void amountsAboveTheirBoundsAreRefused() {
    refused("at most 1048576 CPUs", () -> ResourceRequest.ofCpus(1 << 21));
    refused("at most 1048576 CPUs and as many GPUs", () -> ResourceRequest.ofGpus(Integer.MAX_VALUE));
    refused("a GPU share is between 1 and 999 thousandths of one GPU, not 1000", () -> new ResourceRequest(0, 0, 1000, 0, null));
    refused("not 1500", () -> new ResourceRequest(0, 0, 1500, 0, null));
    refused("gpuMemoryMb is at most 1099511627776", () -> new ResourceRequest(0, 1, 0, (1L << 40) + 1, null));
    refused("maxMemoryMb is at most 16777216", () -> new ResourceRequest(1, 0, 0, 0, null, (1 << 24) + 1));
    refused("maxMemoryMb=63 is too small for a JVM: give at least 64", () -> new ResourceRequest(1, 0, 0, 0, null, 63));
    assertEquals(64, new ResourceRequest(1, 0, 0, 0, null, 64).maxMemoryMb());
  }

  @Test
  void wholeGpusWithAShareOrNothingAtAllIsRefused() {
    refused("whole GPUs or a share of one, not both (2 GPU(s) and 0.25)", () -> new ResourceRequest(0, 2, 250, 0, null));
    refused("at least one CPU or some GPU", () -> new ResourceRequest(0, 0));
  }

  @Test
  void aModelIsStrippedBlankIsNoneAndOverLongOrAloneIsRefused() {
    assertNull(new ResourceRequest(0, 1, 0, 0, "  ").gpuModel());
    assertNull(new ResourceRequest(1, 0, 0, 0, "").gpuModel(), "a blank model on a CPU request is no model");
    assertEquals("A100", new ResourceRequest(0, 1, 0, 0, " A100 ").gpuModel());
    assertEquals(128, new ResourceRequest(0, 1, 0, 0, "m".repeat(128)).gpuModel().length());
    refused("gpuModel has 129 characters, at most 128 allowed", () -> new ResourceRequest(0, 1, 0, 0, "m".repeat(129)));
    refused("not how much of one: ask for GPUs with it, e.g. .gpus(1).gpuModel(\"A100\")",
        () -> new ResourceRequest(1, 0, 0, 0, "A100"));
  }

  @Test
  void aBuilderStatesTheGpuAmountAsUsersWriteIt() {
    assertEquals(new ResourceRequest(1, 0, 250, 512, "A100", 256), ResourceRequest.of(1, 0.25, 512, "A100", 256));
    assertEquals(new ResourceRequest(0, 2, 0, 0, null, 0), ResourceRequest.of(0, 2, 0, null, 0));
    refused("whole number of 1/1000 of a GPU", () -> ResourceRequest.of(0, 0.0001, 0, null, 0));
    refused("not NaN", () -> ResourceRequest.of(1, Double.NaN, 0, null, 0));
    assertEquals(new ResourceRequest(0, 1), ResourceRequest.of(2, 1, 0, null, 0).withCpus(0));
    assertEquals(128, ResourceRequest.ofCpus(1).withMaxMemoryMb(128).maxMemoryMb());
  }

  @Test
  void anAllocationHoldsAShareOnOneGpuOrWholeGpus() {
    assertTrue(new Allocation("j", "w", 0, List.of(0, 1)).wholeGpus());
    assertEquals(0, new Allocation("j", "w", 2, List.of()).gpuShare());
    refused("invalid GPU share 1001", () -> new Allocation("j", "w", 0, List.of(0), 1001, 0));
    refused("a share never spans GPUs", () -> new Allocation("j", "w", 0, List.of(0, 1), 500, 0));
    refused("without a GPU", () -> new Allocation("j", "w", 1, List.of(), 250, 0));
    refused("with neither a share nor a budget", () -> new Allocation("j", "w", 0, List.of(3), 0, 0));
  }

  @Test
  void aRequestReadsAsItselfAndAsWhatItWaitsFor() {
    ResourceRequest whole = ResourceRequest.ofGpus(2);
    assertEquals("2 GPUs", whole.toString());
    assertEquals("2 vacant GPU(s)", whole.vacantWords());
    ResourceRequest share = new ResourceRequest(1, 0, 250, 512, "A100");
    assertEquals("0.25 of a GPU with 512 MiB of GPU memory (model A100) and 1 CPU", share.toString());
    assertEquals("0.25 of a vacant GPU with 512 MiB of GPU memory and model A100 and 1 vacant CPU(s)", share.vacantWords());
    ResourceRequest budget = new ResourceRequest(0, 0, 0, 4_096, null);
    assertEquals("a place on a GPU with 4096 MiB of GPU memory", budget.toString());
    assertEquals("room on a GPU with 4096 MiB of GPU memory", budget.vacantWords());
    ResourceRequest cpus = ResourceRequest.ofCpus(3);
    assertEquals("3 CPUs", cpus.toString());
    assertEquals("3 vacant CPU(s)", cpus.vacantWords());
  }
}
