package org.parl.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AllocationTokenTest {

  @Test
  void aFreshPrivateTokenPerAllocationGoneWhenClosed(@TempDir Path home) throws Exception {
    AllocationToken a = AllocationToken.create(home, "41");
    AllocationToken b = AllocationToken.create(home, "41");
    try {
      Path file = a.file();
      assertTrue(file.startsWith(home.resolve("slurm")), file.toString());
      assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
      assertEquals(64, Files.readString(file).strip().length(), "256 bits in hex");
      assertFalse(Files.readString(file).equals(Files.readString(b.file())), "two runs of one job get two tokens");
    } finally {
      a.close();
      b.close();
    }
    assertFalse(Files.exists(a.file().getParent()));
    a.close(); // twice is fine
  }
}
