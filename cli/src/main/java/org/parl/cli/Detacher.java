package org.parl.cli;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.parl.internal.security.PrivatePaths;
import org.parl.node.NodeFailure;
import org.parl.node.ParlHome;

/**
 * Starts this same command again as a background process (without {@code --detach}), waits until
 * it says it is ready, and records it in a pid file that {@code parl stop} uses. Nodes are found
 * by pid file, never by name.
 */
final class Detacher {

  private static final long READY_TIMEOUT_MS = 120_000;

  private Detacher() {}

  /** @return the exit code for this launcher process */
  static int detach(String role, List<String> args) {
    String started = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS"));
    Path log = ParlHome.logs().resolve(role + "-" + started + ".log");
    Process p;
    try {
      PrivatePaths.createFileIfAbsent(log); // 0600 from the start: a master's log holds its login link
      PrivatePaths.createDirectories(ParlHome.run());
      List<String> cmd = new ArrayList<>();
      if (new File("/usr/bin/setsid").canExecute()) {
        cmd.add("/usr/bin/setsid");
      }
      cmd.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
      cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
      cmd.add("-jar");
      cmd.add(jar().toString());
      cmd.addAll(args.stream().filter(a -> !a.equals("--detach")).toList());
      p = new ProcessBuilder(cmd)
          .redirectErrorStream(true)
          .redirectOutput(log.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .start();
    } catch (IOException e) {
      throw new NodeFailure("cannot start the " + role + " in the background: " + e.getMessage());
    }
    Optional<String> ready = awaitReady(p, log);
    if (ready.isEmpty()) {
      p.destroy();
      System.err.println(tail(log));
      throw new NodeFailure("the " + role + " did not start (log: " + log + ")");
    }
    PidFiles.write(role, p.toHandle(), log, args);
    System.out.println(ready.get());
    System.out.println("running in the background as pid " + p.pid() + "; log: " + log);
    System.out.println("stop it with: bin/parl stop");
    return 0;
  }

  private static Optional<String> awaitReady(Process p, Path log) {
    long deadline = System.currentTimeMillis() + READY_TIMEOUT_MS;
    while (System.currentTimeMillis() < deadline) {
      for (String line : lines(log)) {
        if (line.startsWith("parl ") && line.contains(" ready")) {
          return Optional.of(line);
        }
      }
      if (!p.isAlive()) {
        return Optional.empty();
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  private static List<String> lines(Path log) {
    try {
      return Files.readAllLines(log);
    } catch (IOException | java.io.UncheckedIOException e) {
      return List.of();
    }
  }

  private static String tail(Path log) {
    List<String> l = lines(log);
    return String.join("\n", l.subList(Math.max(0, l.size() - 15), l.size()));
  }

  private static Path jar() {
    try {
      return Path.of(Detacher.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new NodeFailure("cannot find the parl jar: " + e.getMessage());
    }
  }
}
