package org.parl.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;

/**
 * A stand-in for {@code nvidia-smi} that prints N GPUs in the format parl queries (SPEC §2): the
 * only thing about GPUs that the demo, the benchmark and the tests fake. The one copy.
 */
public final class FakeNvidiaSmi {

  private FakeNvidiaSmi() {}

  /** Writes {@code dir/nvidia-smi-N}, an executable script listing GPUs 0..N-1, and returns it. */
  public static Path write(Path dir, int count) throws IOException {
    Files.createDirectories(dir);
    Path script = dir.resolve("nvidia-smi-" + count);
    StringBuilder sb = new StringBuilder("#!/bin/sh\n# fake nvidia-smi (parl): ").append(count).append(" GPUs\n");
    for (int i = 0; i < count; i++) {
      sb.append(String.format(Locale.ROOT, "echo \"%d, GPU-fake0000-0000-0000-0000-%012d, NVIDIA Fake H100, 81559, %d, %d\"%n",
          i, i, 512 + 100 * i, 3 * i));
    }
    Files.writeString(script, sb.toString());
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    return script;
  }
}
