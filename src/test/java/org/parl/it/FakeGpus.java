package org.parl.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A stand-in for {@code nvidia-smi} that prints N GPUs in the format parl queries: the only thing
 * about GPUs the tests fake (SPEC §2).
 */
public final class FakeGpus {

  private FakeGpus() {}

  public static Path script(Path dir, int count) {
    try {
      Files.createDirectories(dir);
      Path script = dir.resolve("nvidia-smi-" + count);
      StringBuilder sb = new StringBuilder("#!/bin/sh\n");
      sb.append("# fake nvidia-smi: ").append(count).append(" GPUs\n");
      for (int i = 0; i < count; i++) {
        sb.append(String.format("echo \"%d, GPU-fake0000-0000-0000-0000-%012d, NVIDIA Fake H100, 81559, %d, %d\"%n",
            i, i, 512 + 100 * i, 3 * i));
      }
      Files.writeString(script, sb.toString());
      Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
      return script;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
