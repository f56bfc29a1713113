package org.parl.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A job process's state has one writer, its {@link JobVerticle}: no other class of the worker
 * assigns a mutable field of a {@link JobProcess} (read from the sources, which the build compiles
 * from this module's directory).
 */
class JobStateWritersTest {

  private static final Path SOURCES = Path.of("src/main/java/org/parl/worker");
  private static final Set<String> OWNERS = Set.of("JobVerticle.java", "JobProcess.java");
  /** Every field of {@code JobProcess} that is not final. */
  private static final Pattern ASSIGNMENT = Pattern.compile("\\b(?!this\\.)[a-z]\\w*\\.(state|process|tree|pendingEnd|output|control"
      + "|controlOut|lastReady|job|lastPong|calls|killCause|stopCause|exitedItself|endCause|endedAt|successor|encryptData)"
      + "\\s*(=[^=]|\\+=|-=|\\+\\+|--)");

  @Test
  void onlyTheJobVerticleWritesAJobProcesssState() throws IOException {
    assertTrue(Files.isDirectory(SOURCES), "run from the node module: " + SOURCES.toAbsolutePath());
    List<String> writes = new ArrayList<>();
    try (Stream<Path> files = Files.list(SOURCES)) {
      for (Path f : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
        if (OWNERS.contains(f.getFileName().toString())) {
          continue;
        }
        List<String> lines = Files.readAllLines(f);
        for (int i = 0; i < lines.size(); i++) {
          Matcher m = ASSIGNMENT.matcher(lines.get(i));
          if (m.find()) {
            writes.add(f.getFileName() + ":" + (i + 1) + ": " + lines.get(i).strip());
          }
        }
      }
    }
    assertEquals(List.of(), writes, "a JobProcess's state is changed through its JobVerticle");
  }

  @Test
  void theCheckSeesAWrite() {
    assertTrue(ASSIGNMENT.matcher("    p.state = JobProcess.State.ENDED;").find());
    assertTrue(ASSIGNMENT.matcher("      job.output = JobOutput.start(in);").find());
    assertTrue(ASSIGNMENT.matcher("    next.calls++;").find());
    assertTrue(!ASSIGNMENT.matcher("    if (p.state == JobProcess.State.IDLE) {").find());
    assertTrue(!ASSIGNMENT.matcher("    this.lastReady = ready;").find());
  }
}
