package org.parl.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.parl.internal.wire.Hashes;

/** The installation's jars that are not on a job's class path still reach its actors, after their own code. */
class LibrariesTest {

  @TempDir
  Path tmp;

  private static byte[] jar(String entry, String text) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (JarOutputStream j = new JarOutputStream(bytes)) {
      j.putNextEntry(new JarEntry(entry));
      j.write(text.getBytes(StandardCharsets.UTF_8));
      j.closeEntry();
    }
    return bytes.toByteArray();
  }

  private String ship(BlobStore blobs, byte[] data) throws Exception {
    String hash = Hashes.sha256(data, 0, data.length);
    blobs.put(hash, data, 0, data.length);
    return hash;
  }

  @Test
  void anActorFindsItsOwnCodeFirstAndTheLibrariesOnlyForWhatItLacks() throws Exception {
    Path lib = tmp.resolve("lib.jar");
    Files.write(lib, jar("org/example/shared.txt", "from the library"));
    Path lib2 = tmp.resolve("lib2.jar");
    Files.write(lib2, jar("org/example/library.txt", "library only"));
    Libraries libraries = Libraries.of(lib + File.pathSeparator + lib2 + File.pathSeparator);
    BlobStore blobs = new BlobStore(tmp.resolve("blobs"));
    String code = ship(blobs, jar("org/example/shared.txt", "from the actor"));
    ActorCode actors = new ActorCode(blobs, Files.createDirectories(tmp.resolve("work")), libraries);

    ClassLoader actor = actors.loader(List.of(code));
    assertSame(LibrariesTest.class.getClassLoader(), actor.getParent(), "the job's own classes come first");
    assertEquals(String.class, actor.loadClass("java.lang.String"));
    assertEquals("from the actor", new String(actor.getResourceAsStream("org/example/shared.txt").readAllBytes(),
        StandardCharsets.UTF_8));
    assertFalse(libraries.opened(), "what the actor's code has opens no library");

    assertNotNull(actor.getResource("org/example/library.txt"));
    assertTrue(libraries.opened());
    List<URL> both = Collections.list(actor.getResources("org/example/shared.txt"));
    assertEquals(2, both.size(), both.toString());
    assertNull(LibrariesTest.class.getClassLoader().getResource("org/example/library.txt"), "not on the job's class path");
    assertThrows(ClassNotFoundException.class, () -> actor.loadClass("org.example.Missing"));
    assertNotNull(actors.loader(List.of()).getResource("org/example/library.txt"), "the next actor of a reused job");
  }

  @Test
  void withoutLibrariesAnActorSeesTheJobsClassPathAndItsCode() throws Exception {
    Libraries none = Libraries.none();
    ActorCode code = new ActorCode(new BlobStore(tmp.resolve("blobs")), Files.createDirectories(tmp.resolve("work")), none);
    ClassLoader actor = code.loader(List.of());
    assertSame(LibrariesTest.class.getClassLoader(), actor.getParent());
    assertThrows(ClassNotFoundException.class, () -> actor.loadClass("org.example.Missing"));
    assertNull(actor.getResource("org/example/library.txt"));
    assertFalse(none.opened());
  }
}
