package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A user's program built and run with nothing but {@code bin/parl classpath} (README): it compiles
 * against the client artifact alone, runs against a real cluster, and that class path holds no node
 * runtime (no Hazelcast, no web server, no CLI, no logging binding). The same program also runs
 * through {@code bin/parl run}, whose first run leaves the client library's class-data archive.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClientClasspathIT {

  private static final Duration QUICK = Duration.ofSeconds(120);
  private static final Path ROOT = Path.of(System.getProperty("parl.root", "..")).toAbsolutePath().normalize();
  private static final String JAVA_HOME = System.getProperty("java.home");
  private static final String PROGRAM = """
      import org.parl.Parl;
      import org.parl.ParlClient;
      import org.parl.RemoteClass;

      public class HelloParl {
        public interface Greeter { String greet(String who); long pid(); }

        @RemoteClass(cpus = 1)
        public static class GreeterImpl implements Greeter {
          public GreeterImpl() {}
          public String greet(String who) { return "hello " + who; }
          public long pid() { return ProcessHandle.current().pid(); }
        }

        public static void main(String[] args) {
          try (ParlClient parl = Parl.connect(args[0])) {
            Greeter g = parl.actor(Greeter.class, GreeterImpl.class).create();
            System.out.println("ANSWER " + g.greet("parl") + " from pid " + g.pid()
                + " (client pid " + ProcessHandle.current().pid() + ")");
          }
        }
      }
      """;

  private TestCluster cluster;
  private Path dir;

  @BeforeAll
  void start() throws Exception {
    cluster = TestCluster.start(0, "--cpus", "1");
    dir = Files.createTempDirectory("parl-classpath-it");
  }

  @AfterAll
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
    }
  }

  @Test
  void programBuiltWithTheClientClasspathRunsAgainstACluster() throws Exception {
    String classpath = clientClasspath();

    List<String> jars = new ArrayList<>();
    for (String entry : classpath.split(File.pathSeparator)) {
      Path p = Path.of(entry.endsWith("*") ? entry.substring(0, entry.length() - 1) : entry);
      if (Files.isDirectory(p)) {
        try (Stream<Path> s = Files.list(p)) {
          s.forEach(j -> jars.add(j.getFileName().toString()));
        }
      } else {
        jars.add(p.getFileName().toString());
      }
    }
    assertTrue(jars.stream().anyMatch(j -> j.startsWith("vertx-core")), "vertx-core is on it: " + jars);
    for (String forbidden : List.of("hazelcast", "vertx-web", "vertx-hazelcast", "picocli", "logback", "parl-node", "parl-cli",
        "parl-scheduler")) {
      assertTrue(jars.stream().noneMatch(j -> j.startsWith(forbidden)), forbidden + " must not be on the client class path: " + jars);
    }

    Files.writeString(dir.resolve("HelloParl.java"), PROGRAM);
    compile(classpath, dir, List.of(dir.resolve("HelloParl.java")));

    try (ParlProcess program = ParlProcess.startCommand(ParlProcess.env(cluster.home), "hello",
        List.of(Path.of(JAVA_HOME, "bin", "java").toString(), "-cp", classpath + File.pathSeparator + dir,
            "HelloParl", cluster.address))) {
      var answer = program.awaitLine("ANSWER hello parl from pid (\\d+) \\(client pid (\\d+)\\)", QUICK);
      assertTrue(!answer.group(1).equals(answer.group(2)), "the actor ran in a job process of its own");
      assertEquals(0, program.awaitExit(QUICK), program.output());
      assertQuiet(program.output());
    }

    // the launcher: the first run records its classes and leaves a class-data archive behind it, the next maps it
    Path cds = cluster.home.resolve("cds");
    for (int run = 0; run < 2; run++) {
      try (ParlProcess program = ParlProcess.startCommand(ParlProcess.env(cluster.home), "run-" + run,
          List.of(ROOT.resolve("bin/parl").toString(), "run", "-cp", dir.toString(), "HelloParl", cluster.address))) {
        program.awaitLine("ANSWER hello parl from pid (\\d+)", QUICK);
        assertEquals(0, program.awaitExit(QUICK), program.output());
        assertQuiet(program.output());
      }
      Await.until("bin/parl run's class-data archive in " + cds, QUICK, () -> hasClientArchive(cds));
    }
  }

  /**
   * The README's example, demo's {@code readme} package (which ReadmeExampleTest keeps equal to the
   * README), compiles on the client class path alone and runs against a mixed cluster of fake GPUs.
   */
  @Test
  void theReadmesExampleCompilesAndRuns() throws Exception {
    String classpath = clientClasspath();
    Path out = Files.createDirectories(dir.resolve("readme"));
    List<Path> sources;
    try (Stream<Path> files = Files.list(ROOT.resolve("demo/src/main/java/org/parl/demo/readme"))) {
      sources = files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
    }
    compile(classpath, out, sources);
    try (TestCluster mixed = TestCluster.startMixed(2, 2);
        ParlProcess program = ParlProcess.startCommand(ParlProcess.env(mixed.home), "readme",
            List.of(Path.of(JAVA_HOME, "bin", "java").toString(), "-cp", classpath + File.pathSeparator + out,
                "org.parl.demo.readme.ReadmeExample", mixed.address))) {
      var said = program.awaitLine("add\\(5\\) gave 15, count was 15; learner on GPU \\[(\\d)\\], policy on GPU \\[(\\d)\\]; "
          + "0 create\\(s\\) waiting", QUICK);
      assertFalse(said.group(1).equals(said.group(2)), "a share is not placed on a GPU held whole: " + said.group());
      assertEquals(0, program.awaitExit(QUICK), program.output());
      assertQuiet(program.output());
    }
  }

  /** What {@code bin/parl classpath} prints. */
  private static String clientClasspath() {
    try (ParlProcess printed = ParlProcess.startCommand(Map.of(), "classpath",
        List.of(ROOT.resolve("bin/parl").toString(), "classpath"))) {
      String classpath = printed.awaitLine("^(/\\S*/client/target/parl\\.jar:\\S*)$", QUICK).group(1);
      assertEquals(0, printed.awaitExit(QUICK), printed.output());
      return classpath;
    }
  }

  private static void compile(String classpath, Path out, List<Path> sources) {
    List<String> cmd = new ArrayList<>(List.of(Path.of(JAVA_HOME, "bin", "javac").toString(), "-cp", classpath,
        "-d", out.toString()));
    sources.forEach(f -> cmd.add(f.toString()));
    try (ParlProcess javac = ParlProcess.startCommand(Map.of(), "javac", cmd)) {
      assertEquals(0, javac.awaitExit(QUICK), javac.output());
    }
  }

  /**
   * A program without a logging binding prints what it prints and nothing else: no SLF4J notice about
   * missing providers, no warning or stack trace from the libraries under it.
   */
  private static void assertQuiet(String output) {
    for (String noise : List.of("SLF4J", "WARN", "Exception", "\tat ")) {
      assertFalse(output.contains(noise), "'" + noise + "' in a user program's output:\n" + output);
    }
  }

  private static boolean hasClientArchive(Path cds) throws java.io.IOException {
    if (!Files.isDirectory(cds)) {
      return false;
    }
    try (Stream<Path> files = Files.list(cds)) {
      return files.anyMatch(f -> f.getFileName().toString().matches("client-\\d+\\.jsa"));
    }
  }
}
