package org.parl.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which jars a job process has on its class path, and which it leaves to its actors' libraries. */
class JobClassPathTest {

  @TempDir
  Path tmp;

  private Path jar(String name, String classPath) throws IOException {
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    if (classPath != null) {
      m.getMainAttributes().put(Attributes.Name.CLASS_PATH, classPath);
    }
    Path p = tmp.resolve(name);
    try (OutputStream out = Files.newOutputStream(p); JarOutputStream jar = new JarOutputStream(out, m)) {
      jar.flush();
    }
    return p;
  }

  @Test
  void theJobKeepsWhatItsManifestNamesAndTheRestBecomesLibrariesWithLaunchersLast() throws IOException {
    Path job = jar("parl-job.jar", "wire.jar jackson.jar");
    Path wire = jar("wire.jar", null);
    Path jackson = jar("jackson.jar", null);
    Path hazelcast = jar("hazelcast.jar", null);
    Path launcher = jar("parl.jar", "parl-job.jar wire.jar jackson.jar hazelcast.jar logback.jar");
    Path logback = jar("logback.jar", null);
    JobClassPath paths = JobClassPath.of(List.of(launcher, job, wire, hazelcast, jackson, logback), job, List.of(job));
    assertEquals(List.of(job, wire, jackson), paths.own());
    assertEquals(List.of(hazelcast, logback, launcher), paths.libraries(),
        "the launcher jar would bring every jar in ahead of the others");
  }

  @Test
  void aJobJarThatNamesAMissingJarKeepsTheWholeClassPathWithItsOwnFirst() throws IOException {
    Path job = jar("parl-job.jar", "wire.jar gone.jar");
    Path wire = jar("wire.jar", null);
    Path hazelcast = jar("hazelcast.jar", null);
    JobClassPath paths = JobClassPath.of(List.of(hazelcast, job, wire), job, List.of(job, wire));
    assertEquals(List.of(job, wire, hazelcast), paths.own());
    assertEquals(List.of(), paths.libraries());
  }

  @Test
  void aJobRunFromClassFoldersKeepsTheWholeClassPath() throws IOException {
    Path classes = Files.createDirectories(tmp.resolve("job/classes"));
    Path hazelcast = jar("hazelcast.jar", null);
    JobClassPath paths = JobClassPath.of(List.of(hazelcast, classes), classes, List.of(classes));
    assertEquals(List.of(classes, hazelcast), paths.own());
    assertEquals(List.of(), paths.libraries());
    assertEquals(List.of(hazelcast), JobClassPath.of(List.of(hazelcast), null, List.of()).own());
  }
}
