package org.parl.bench;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.parl.node.ClientLibrary;
import org.parl.node.NodeJvm;

/**
 * Command lines of the JVMs the benchmark starts, from the same Java and the same parl jar as the
 * benchmark itself: cluster nodes get Hazelcast's flags (as {@code bin/parl} gives them), user-like
 * programs (probe, echo server) do not.
 */
final class JavaCommand {

  private static final List<String> NODE_FLAGS = NodeJvm.HAZELCAST_FLAGS;

  private final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
  private final Path jar;

  private JavaCommand(Path jar) {
    this.jar = jar;
  }

  /**
   * Finds the parl jar: the one this JVM runs ({@code java -jar parl.jar}, as {@code bin/parl}
   * does), else {@code cli/target/parl.jar} under {@code -Dparl.root} or the working directory.
   *
   * @throws IllegalStateException when there is none
   */
  static JavaCommand locate() {
    for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
      if (entry.endsWith("parl.jar") && Files.isRegularFile(Path.of(entry))) {
        return new JavaCommand(Path.of(entry).toAbsolutePath());
      }
    }
    Path built = Path.of(System.getProperty("parl.root", "."), "cli", "target", "parl.jar").toAbsolutePath().normalize();
    if (!Files.isRegularFile(built)) {
      throw new IllegalStateException("the parl jar is missing (" + built + "): build it with 'mvn -B -DskipTests package'");
    }
    return new JavaCommand(built);
  }

  /** {@code java <node flags> -jar parl.jar <args>}: a parl command, as {@code bin/parl} runs it. */
  List<String> parl(List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(java);
    cmd.addAll(NODE_FLAGS);
    cmd.add("-jar");
    cmd.add(jar.toString());
    cmd.addAll(args);
    return cmd;
  }

  /** {@code java <node flags> -cp parl.jar <main> <args>}: a cluster member of the benchmark's own. */
  List<String> node(Class<?> main, List<String> args) {
    return command(NODE_FLAGS, jar.toString(), main, args);
  }

  /**
   * {@code java -cp <client class path>:<main's jar> <main> <args>}: a user's program, whose class path
   * is the client library only ({@link ClientLibrary}, as {@code bin/parl classpath} gives it), not the
   * cluster's runtime, plus the jar of {@code main} (the benchmark's).
   *
   * @throws org.parl.node.NodeFailure when the client library is not built
   */
  List<String> clientProgram(Class<?> main, List<String> args) {
    Path root = Path.of(System.getProperty("parl.root", jar.getParent().getParent().getParent().toString()));
    return command(List.of(), ClientLibrary.classPath(root) + File.pathSeparator + ownJar(main), main, args);
  }

  /** The jar (or class folder) that holds {@code main}. */
  String ownJar(Class<?> main) {
    try {
      return Path.of(main.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException("cannot locate the jar of " + main.getName() + ": " + e.getMessage(), e);
    }
  }

  /** {@code java -cp parl.jar <main> <args>}: a plain program on the cluster's runtime class path. */
  List<String> program(Class<?> main, List<String> args) {
    return command(List.of(), jar.toString(), main, args);
  }

  private List<String> command(List<String> flags, String classPath, Class<?> main, List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(java);
    cmd.addAll(flags);
    cmd.add("-cp");
    cmd.add(classPath);
    cmd.add(main.getName());
    cmd.addAll(args);
    return cmd;
  }
}
