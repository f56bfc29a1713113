package org.parl.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.File;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The installation's jars that are not on a job's class path still reach its actors. */
class LibrariesTest {

  @TempDir
  Path tmp;

  @Test
  void anActorSeesTheLibrariesThroughOneLoaderMadeOnFirstUse() throws Exception {
    Path jar = tmp.resolve("lib.jar");
    try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out)) {
      j.putNextEntry(new JarEntry("org/example/library.txt"));
      j.write("from the library".getBytes(StandardCharsets.UTF_8));
      j.closeEntry();
    }
    Libraries libraries = Libraries.of(jar + File.pathSeparator);
    ActorCode code = new ActorCode(new BlobStore(tmp.resolve("blobs")), Files.createDirectories(tmp.resolve("work")), libraries);
    ClassLoader actor = code.loader(List.of());
    assertNotNull(actor.getResource("org/example/library.txt"));
    assertNull(LibrariesTest.class.getClassLoader().getResource("org/example/library.txt"), "not on the job's class path");
    ClassLoader shared = libraries.parent();
    assertSame(shared, actor.getParent());
    assertSame(shared, code.loader(List.of()).getParent(), "the next actor of a reused job gets the same one");
    assertSame(Libraries.class.getClassLoader(), shared.getParent());
    assertEquals(String.class, actor.loadClass("java.lang.String"));
  }

  @Test
  void withoutLibrariesAnActorsLoaderIsAChildOfTheJobs() throws Exception {
    ActorCode code = new ActorCode(new BlobStore(tmp.resolve("blobs")), Files.createDirectories(tmp.resolve("work")),
        Libraries.none());
    assertSame(Libraries.class.getClassLoader(), code.loader(List.of()).getParent());
  }
}
