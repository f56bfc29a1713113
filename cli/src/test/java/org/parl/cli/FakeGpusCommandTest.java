package org.parl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.parl.worker.gpu.GpuInventory;

/** {@code parl fake-gpus N}: the script it writes is read by the product as N GPUs; a wrong N is one line and exit 2. */
class FakeGpusCommandTest {

  private record Outcome(int code, String out, String err) {}

  private static Outcome run(String... args) {
    PrintStream savedOut = System.out;
    PrintStream savedErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      int code = Main.run(args);
      return new Outcome(code, out.toString(StandardCharsets.UTF_8).strip(), err.toString(StandardCharsets.UTF_8).strip());
    } finally {
      System.setOut(savedOut);
      System.setErr(savedErr);
    }
  }

  @Test
  void theScriptListsNGpusToTheProductsOwnReader(@TempDir Path dir) {
    Outcome o = run("fake-gpus", "3", "--dir", dir.toString());
    assertEquals(0, o.code(), o.err());
    Path script = Path.of(o.out());
    assertEquals(dir.resolve("fake-gpus-3").resolve("nvidia-smi").toAbsolutePath(), script, "stdout is the path alone");
    assertTrue(Files.isExecutable(script));
    assertTrue(o.err().endsWith("bin/parl master --gpu-cluster --nvidia-smi " + script), o.err());
    GpuInventory.Reading reading = GpuInventory.of(script.toString()).read();
    assertEquals(java.util.List.of(0, 1, 2), reading.ids(), reading.toString());
  }

  @Test
  void theSameFolderTwiceIsTheSameHost(@TempDir Path dir) {
    Path first = Path.of(run("fake-gpus", "2", "--dir", dir.toString()).out());
    Path second = Path.of(run("fake-gpus", "2", "--dir", dir.toString()).out());
    assertEquals(first, second);
    assertEquals(GpuInventory.of(first.toString()).read().devices(), GpuInventory.of(second.toString()).read().devices());
  }

  @Test
  void aWrongCountIsOneLineAndUsage(@TempDir Path dir) {
    String d = dir.toString();
    assertWrong(run("fake-gpus", "--dir", d), "fake-gpus: Missing required parameter: 'N'");
    assertWrong(run("fake-gpus", "0", "--dir", d), "fake-gpus: N is how many fake GPUs, 1 to 64, not 0");
    assertWrong(run("fake-gpus", "-3", "--dir", d), "fake-gpus: ");
    assertWrong(run("fake-gpus", "65", "--dir", d), "fake-gpus: N is how many fake GPUs, 1 to 64, not 65");
    assertWrong(run("fake-gpus", "two", "--dir", d), "fake-gpus: Invalid value for positional parameter at index 0 (N): "
        + "'two' is not an int");
    try (var left = Files.list(dir)) {
      assertEquals(0, left.count(), "nothing was written");
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  private static void assertWrong(Outcome o, String start) {
    assertEquals(2, o.code(), o.err());
    assertTrue(o.err().startsWith(start), o.err());
    assertEquals(1, o.err().lines().count(), "one line: " + o.err());
    assertEquals("", o.out());
  }
}
