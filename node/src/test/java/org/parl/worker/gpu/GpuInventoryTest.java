package org.parl.worker.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** nvidia-smi as a process: failures, a wedged binary under the deadline, and the stale fallback. */
class GpuInventoryTest {

  private static final Duration DEADLINE = Duration.ofSeconds(1);
  private static final List<GpuDevice> TWO = List.of(new GpuDevice(0, "GPU-a", "Fake H100", 81559, 512, 3),
      new GpuDevice(1, "GPU-b", "Fake H100", 81559, 612, 6));

  @TempDir
  Path tmp;

  private Path script(String body) throws IOException {
    Path s = tmp.resolve("nvidia-smi");
    Files.writeString(s, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(s, PosixFilePermissions.fromString("rwx------"));
    return s;
  }

  private Path twoGpus() throws IOException {
    return script("echo '0, GPU-a, Fake H100, 81559, 512, 3, 0, No, No'\necho '1, GPU-b, Fake H100, 81559, 612, 6, [N/A], [N/A], [N/A]'");
  }

  /** A binary that never answers: it starts a child that holds the output open, and waits for it. */
  private Path wedged(Path pids) throws IOException {
    return script("echo $$ > " + pids + "\nsleep 100000 &\necho $! >> " + pids + "\nwait");
  }

  @Test
  void readsTheDevicesTheBinaryPrints() throws IOException {
    GpuInventory.Reading r = new GpuInventory(twoGpus().toString(), DEADLINE).read();
    assertEquals(TWO, r.devices());
    assertEquals(Optional.empty(), r.problem());
    assertFalse(r.stale());
  }

  @Test
  void aWedgedBinaryIsKilledAtTheDeadlineAndTheLastGoodReadingIsKeptAsStale() throws Exception {
    GpuInventory inventory = new GpuInventory(twoGpus().toString(), DEADLINE);
    assertEquals(TWO, inventory.read().devices());
    Path pids = tmp.resolve("pids");
    wedged(pids);

    long start = System.nanoTime();
    GpuInventory.Reading r = inventory.read();
    long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertTrue(tookMs < DEADLINE.toMillis() + 2_000, "the read returned after " + tookMs + " ms");
    assertTrue(r.problem().orElse("").contains("did not answer within 1 s; it was killed"), r.problem().toString());
    assertTrue(r.stale());
    assertEquals(TWO, r.devices(), "the last good devices");
    List<Long> started = Files.readAllLines(pids).stream().map(String::strip).map(Long::parseLong).toList();
    assertEquals(2, started.size(), "the script and its child");
    for (long pid : started) {
      Optional<ProcessHandle> h = ProcessHandle.of(pid);
      if (h.isPresent()) {
        h.get().onExit().get(5, TimeUnit.SECONDS);
      }
      assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "process " + pid + " is still alive");
    }
  }

  @Test
  void aWedgedBinaryWithNoGoodReadingYetIsAProblemWithoutDevices() throws Exception {
    GpuInventory.Reading r = new GpuInventory(wedged(tmp.resolve("pids")).toString(), DEADLINE).read();
    assertTrue(r.problem().orElse("").contains("it was killed"), r.problem().toString());
    assertFalse(r.stale());
    assertEquals(List.of(), r.devices());
  }

  @Test
  void aFailingBinarySaysHowAndFallsBackToTheLastGoodReading() throws Exception {
    GpuInventory inventory = new GpuInventory(twoGpus().toString(), DEADLINE);
    inventory.read();
    script("echo \"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\"\nexit 9");
    GpuInventory.Reading r = inventory.read();
    assertEquals(Optional.of(tmp.resolve("nvidia-smi") + " failed (exit 9): NVIDIA-SMI has failed because it couldn't "
        + "communicate with the NVIDIA driver."), r.problem());
    assertTrue(r.stale());
    assertEquals(TWO, r.devices());

    twoGpus();
    GpuInventory.Reading again = inventory.read();
    assertFalse(again.stale(), "a good reading is fresh again");
    assertEquals(Optional.empty(), again.problem());
  }

  @Test
  void garbageOnStdoutWithStatusZeroIsAProblem() throws Exception {
    GpuInventory.Reading r = new GpuInventory(script("echo 'No devices were found'").toString(), DEADLINE).read();
    assertTrue(r.problem().orElse("").contains("unexpected nvidia-smi line: No devices were found"), r.problem().toString());
  }

  /** A binary that answers the query and {@code -L} as nvidia-smi does on a host with a GPU in MIG mode. */
  private Path migHost(String queryRows, String listing, int queryExit) throws IOException {
    return script("case \"$1\" in\n  -L) cat <<'EOF'\n" + listing + "\nEOF\n  ;;\n  *) cat <<'EOF'\n" + queryRows
        + "\nEOF\n  exit " + queryExit + " ;;\nesac");
  }

  @Test
  void migInstancesAreLentInsteadOfTheirGpu() throws IOException {
    Path smi = migHost("0, GPU-00000000-0000-0000-0000-0000000000a0, NVIDIA A100-SXM4-40GB, 40960, 0, [N/A], 0, No, No\n"
        + "1, GPU-00000000-0000-0000-0000-0000000000a1, NVIDIA A100-SXM4-40GB, 40960, 5, 7, 2, No, No",
        "GPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-00000000-0000-0000-0000-0000000000a0)\n"
        + "  MIG 3g.20gb     Device  0: (UUID: MIG-11111111-0000-0000-0000-000000000000)\n"
        + "  MIG 1g.5gb      Device  1: (UUID: MIG-22222222-0000-0000-0000-000000000000)\n"
        + "GPU 1: NVIDIA A100-SXM4-40GB (UUID: GPU-00000000-0000-0000-0000-0000000000a1)", 0);
    GpuInventory.Reading r = new GpuInventory(smi.toString(), DEADLINE).read();
    assertEquals(Optional.empty(), r.problem());
    assertEquals(List.of(100, 101, 1), r.ids(), "GPU 0's instances, then GPU 1, which is not in MIG mode");
    GpuDevice first = r.devices().get(0);
    assertEquals("MIG-11111111-0000-0000-0000-000000000000", first.uuid());
    assertEquals("3g.20gb", first.name());
    assertEquals(20 * 1024, first.memoryTotalMb());
    assertEquals(Optional.of(new GpuDevice.Mig(0, "GPU-00000000-0000-0000-0000-0000000000a0", 0)), first.mig());
    assertEquals("MIG-11111111-0000-0000-0000-000000000000", first.visibleName(), "CUDA addresses a MIG instance by UUID");
    GpuDevice one = r.devices().get(2);
    assertEquals("1", one.visibleName());
    assertEquals(new GpuHealth(GpuHealth.State.FAULTY, "uncorrected volatile ECC errors: 2"), one.health());
  }

  @Test
  void aLostGpuIsReadWithTheUuidItHadAndTheExitStatusOfALostGpuIsNoFailure() throws IOException {
    GpuInventory inventory = new GpuInventory(twoGpus().toString(), DEADLINE);
    inventory.read();
    migHost("0, GPU-a, Fake H100, 81559, 512, 3, 0, No, No\n1, [GPU is lost], [GPU is lost], [GPU is lost], [GPU is lost], "
        + "[GPU is lost], [GPU is lost], [GPU is lost], [GPU is lost]",
        "GPU 0: Fake H100 (UUID: GPU-a)\nUnable to determine the device handle for gpu 00000000:02:00.0: GPU is lost.", 15);
    GpuInventory.Reading r = inventory.read();
    assertEquals(Optional.empty(), r.problem());
    assertFalse(r.stale());
    assertEquals(List.of(0, 1), r.ids());
    assertEquals("GPU-b", r.devices().get(1).uuid(), "the UUID GPU 1 had at the last good reading");
    assertEquals(GpuHealth.State.LOST, r.devices().get(1).health().state());
    assertTrue(r.devices().get(0).health().healthy());
  }

  @Test
  void aMissingBinarySaysWhatToDo() {
    GpuInventory.Reading r = new GpuInventory(tmp.resolve("absent").toString(), DEADLINE).read();
    assertTrue(r.problem().orElse("").contains("cannot be run"), r.problem().toString());
    assertTrue(r.problem().get().contains(GpuInventory.ENV), r.problem().get());
  }
}
