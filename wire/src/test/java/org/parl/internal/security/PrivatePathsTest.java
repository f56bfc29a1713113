package org.parl.internal.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrivatePathsTest {

  @TempDir
  Path dir;

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  @Test
  void foldersAndFilesAreCreatedPrivate() throws Exception {
    Path home = dir.resolve("a/home");
    PrivatePaths.createDirectories(home.resolve("logs"));
    assertEquals("rwx------", mode(dir.resolve("a")));
    assertEquals("rwx------", mode(home));
    assertEquals("rwx------", mode(home.resolve("logs")));
    assertTrue(PrivatePaths.createFileIfAbsent(home.resolve("workers/w1/j1.log")));
    assertEquals("rw-------", mode(home.resolve("workers/w1/j1.log")));
    assertEquals("rwx------", mode(home.resolve("workers/w1")));
    Files.writeString(home.resolve("workers/w1/j1.log"), "kept");
    assertFalse(PrivatePaths.createFileIfAbsent(home.resolve("workers/w1/j1.log")), "an existing log is kept");
    assertEquals("kept", Files.readString(home.resolve("workers/w1/j1.log")));
    PrivatePaths.writeNew(home.resolve("token"), "secret\n".getBytes());
    assertEquals("rw-------", mode(home.resolve("token")));
    assertEquals("secret\n", Files.readString(home.resolve("token")));
    assertThrows(FileAlreadyExistsException.class, () -> PrivatePaths.writeNew(home.resolve("token"), new byte[1]));
    assertEquals("secret\n", Files.readString(home.resolve("token")), "an existing token is never overwritten");
  }

  @Test
  void anOpenHomeOfThisUserIsMadePrivateAndSaidOnce() throws Exception {
    Path home = Files.createDirectory(dir.resolve("home"));
    Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxr-xr-x"));
    assertEquals(Optional.of("made " + home + " private (rwxr-xr-x -> rwx------): it holds the cluster token and logs"),
        PrivatePaths.tighten(home));
    assertEquals("rwx------", mode(home));
    assertEquals(Optional.empty(), PrivatePaths.tighten(home), "a private one is left alone, silently");
    assertEquals(Optional.empty(), PrivatePaths.tighten(dir.resolve("absent")));
  }
}
