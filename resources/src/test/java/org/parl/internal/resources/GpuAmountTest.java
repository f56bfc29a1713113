package org.parl.internal.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** GPU amounts: exact units, the fractions users write, and their words. */
class GpuAmountTest {

  private static void refused(String expected, Runnable build) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, build::run, expected);
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }

  @Test
  void aFractionSplitsIntoExactUnitsAndAWholeAmountIntoGpus() {
    assertEquals(new GpuAmount(0, 250), GpuAmount.of(0.25));
    assertEquals(new GpuAmount(0, 125), GpuAmount.of(0.125));
    assertEquals(new GpuAmount(0, 1), GpuAmount.of(0.001));
    assertEquals(new GpuAmount(2, 0), GpuAmount.of(2));
    assertEquals(new GpuAmount(1, 0), GpuAmount.of(1.0));
    assertEquals(new GpuAmount(0, 0), GpuAmount.of(0));
    assertEquals(GpuAmount.UNITS_PER_GPU, 1000);
  }

  @Test
  void amountsThatAreNoExactGpuAmountAreRefused() {
    refused("whole number of 1/1000 of a GPU, and 1.0E-4 is not", () -> GpuAmount.of(0.0001));
    refused("above 1 must be whole (1.5 asked)", () -> GpuAmount.of(1.5));
    refused("at least 0, not -1.0", () -> GpuAmount.of(-1));
    refused("at least 0, not -0.25", () -> GpuAmount.of(-0.25));
    refused("finite number of at least 0, not NaN", () -> GpuAmount.of(Double.NaN));
    refused("not Infinity", () -> GpuAmount.of(Double.POSITIVE_INFINITY));
    refused("must be whole", () -> GpuAmount.of(1e12));
  }

  @Test
  void theRecordRefusesNegativeBothOrAWholeGpuAsAShare() {
    refused("must not be negative (gpus=-1, gpuShare=0)", () -> new GpuAmount(-1, 0));
    refused("must not be negative (gpus=0, gpuShare=-3)", () -> new GpuAmount(0, -3));
    refused("whole GPUs or a share of one, not both (1 GPU(s) and 0.5)", () -> new GpuAmount(1, 500));
    refused("between 1 and 999 thousandths of one GPU, not 1000", () -> new GpuAmount(0, 1000));
    refused("not 4000", () -> new GpuAmount(0, 4000));
  }

  @Test
  void anAmountReadsAsUsersWriteIt() {
    assertEquals("0.25 GPU", GpuAmount.of(0.25).toString());
    assertEquals("0.125 GPU", GpuAmount.of(0.125).toString());
    assertEquals("1 GPU", GpuAmount.of(1).toString());
    assertEquals("2 GPUs", GpuAmount.of(2).toString());
    assertEquals("0 GPUs", new GpuAmount(0, 0).toString());
    assertEquals("0.5", GpuAmount.shareText(500));
    assertEquals("0.001", GpuAmount.shareText(1));
  }
}
