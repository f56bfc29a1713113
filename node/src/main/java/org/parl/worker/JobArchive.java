package org.parl.worker;

import java.io.File;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.parl.internal.wire.Hashes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An AppCDS archive of the classes a job process loads, shared by the job processes of a host:
 * with it a job JVM starts in about half the time (0.74 s to 0.38 s measured here), which is what
 * an actor without a warm process (a GPU actor, one with a memory limit) waits for. Made once per Java and parl version by a short
 * training run, in the background; jobs started before it exists simply start without it.
 */
final class JobArchive {

  private static final Logger log = LoggerFactory.getLogger(JobArchive.class);
  private static final long TRAINING_TIMEOUT_S = 120;

  private final Path file;
  private final boolean possible;
  private volatile boolean ready;
  /** The archive's content hash and what its file looked like when this worker hashed it. */
  private String hash;
  private Object stamp;

  JobArchive(Path dir, String javaBinary, String classpath) {
    this.file = dir.resolve("job-" + key(javaBinary, classpath) + ".jsa");
    // a dynamic archive needs a class path of jars only
    this.possible = !classpath.isBlank() && List.of(classpath.split(File.pathSeparator)).stream()
        .allMatch(e -> e.endsWith(".jar") && Files.isRegularFile(Path.of(e)));
    this.ready = possible && Files.isRegularFile(file);
  }

  /**
   * JVM options for a job process: use the archive once it exists and is still what this worker
   * made or first hashed. Job processes run as the worker's user and could rewrite the file that
   * later jobs map; the worker hashes it once and, before each use, checks that its inode, size and
   * change time (which no process of the user can set back) are the same, else it hashes it again.
   * An archive that changed is deleted and not used (a new one is made at the next start). Blocking.
   */
  synchronized List<String> options() {
    if (!ready) {
      return List.of();
    }
    try {
      Object now = Hashes.stamp(file);
      if (!now.equals(stamp)) {
        String actual = Hashes.sha256(file);
        if (hash != null && !hash.equals(actual)) {
          ready = false;
          Files.deleteIfExists(file);
          log.warn("the class-data archive {} was changed after it was made: deleted; jobs start without it", file);
          return List.of();
        }
        hash = actual;
        stamp = now;
      }
    } catch (IOException e) {
      ready = false;
      log.warn("the class-data archive {} cannot be read ({}): jobs start without it", file, e.getMessage());
      return List.of();
    }
    return List.of("-XX:SharedArchiveFile=" + file, "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
  }

  /** Makes the archive if it is missing; blocking (it runs a JVM), so call it off the event loop. */
  void prepare(String javaBinary, String classpath, Path blobs) {
    if (ready || !possible) {
      return;
    }
    try {
      Files.createDirectories(file.getParent());
      Path tmp = Files.createTempFile(file.getParent(), "job", ".jsa");
      Files.delete(tmp);
      List<String> cmd = new ArrayList<>(List.of(javaBinary, "-XX:ArchiveClassesAtExit=" + tmp, "-Xlog:cds=off",
          "-Xlog:cds+dynamic=off", "-cp", classpath, "org.parl.job.JobMain", "--train", blobs.toString()));
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (!p.waitFor(TRAINING_TIMEOUT_S, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        log.warn("the class-data archive for job processes was not made within {} s; jobs start without it", TRAINING_TIMEOUT_S);
        return;
      }
      if (p.exitValue() != 0 || !Files.isRegularFile(tmp)) {
        log.warn("the class-data archive for job processes could not be made (exit {}); jobs start without it", p.exitValue());
        Files.deleteIfExists(tmp);
        return;
      }
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
      synchronized (this) {
        hash = Hashes.sha256(file);
        stamp = Hashes.stamp(file);
        ready = true;
      }
      log.info("job processes now start from the class-data archive {}", file);
    } catch (IOException e) {
      log.warn("the class-data archive for job processes could not be made: {}", e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Java and every class-path jar (by size and time) name the archive, so a change makes a new one. */
  private static String key(String javaBinary, String classpath) {
    StringBuilder sb = new StringBuilder(javaBinary).append(System.getProperty("java.vm.version"));
    for (String e : classpath.split(File.pathSeparator)) {
      File f = new File(e);
      sb.append('|').append(e).append(':').append(f.length()).append(':').append(f.lastModified());
    }
    return Hashes.sha256(sb.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)).substring(0, 16);
  }
}
