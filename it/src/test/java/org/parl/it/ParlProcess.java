package org.parl.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.parl.node.NodeJvm;

/**
 * A {@code parl} command run as a real process from the packaged jar, the way {@code bin/parl}
 * runs it. Its output is collected (and copied to {@code target/it-logs/}); closing it kills the
 * process and every process it started, by pid.
 */
public final class ParlProcess implements AutoCloseable {

  private static final List<String> NODE_FLAGS = NodeJvm.HAZELCAST_FLAGS;

  private final Process process;
  private final List<String> lines = new ArrayList<>();
  private final String name;
  /** The process's standard input, for {@link #send}; null when it was closed at the start. */
  private PrintWriter input;
  private Thread pump;

  private ParlProcess(Process process, String name) {
    this.process = process;
    this.name = name;
  }

  public static Path jar() {
    Path jar = Path.of(System.getProperty("parl.jar", "target/parl.jar"));
    if (!Files.exists(jar)) {
      throw new IllegalStateException(jar + " is missing: cluster tests run after 'mvn package' (mvn verify)");
    }
    return jar;
  }

  /** Runs {@code parl args...} with the given extra environment. */
  public static ParlProcess start(Map<String, String> env, String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(NODE_FLAGS);
    cmd.add("-jar");
    cmd.add(jar().toString());
    cmd.addAll(List.of(args));
    return startCommand(env, args.length > 0 ? args[0] : "parl", cmd);
  }

  /** Runs any command, its output collected like a parl command's. */
  public static ParlProcess startCommand(Map<String, String> env, String label, List<String> cmd) {
    return startCommand(env, label, cmd, false);
  }

  /**
   * Runs any command, its output collected like a parl command's; with {@code talk} its standard
   * input stays open for {@link #send} (else it is closed at once).
   */
  public static ParlProcess startCommand(Map<String, String> env, String label, List<String> cmd, boolean talk) {
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().putAll(env);
    String name = label + "-" + System.nanoTime();
    try {
      ParlProcess p = new ParlProcess(pb.start(), name);
      if (talk) {
        p.input = new PrintWriter(new OutputStreamWriter(p.process.getOutputStream(), StandardCharsets.UTF_8), true);
      } else {
        p.process.getOutputStream().close();
      }
      p.pump();
      return p;
    } catch (IOException e) {
      throw new IllegalStateException("cannot start " + cmd, e);
    }
  }

  private void pump() throws IOException {
    Path logDir = Path.of("target", "it-logs");
    Files.createDirectories(logDir);
    PrintWriter log = new PrintWriter(Files.newBufferedWriter(logDir.resolve(name + ".log")), true);
    pump = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          log.println(line);
          synchronized (lines) {
            lines.add(line);
            lines.notifyAll();
          }
        }
      } catch (IOException e) {
        // the process ended
      } finally {
        log.close();
        synchronized (lines) {
          lines.notifyAll();
        }
      }
    }, "output-" + name);
    pump.setDaemon(true);
    pump.start();
  }

  /** Waits for a line matching {@code regex} and returns its match (groups usable). */
  public Matcher awaitLine(String regex, Duration timeout) {
    Pattern p = Pattern.compile(regex);
    long deadline = System.nanoTime() + timeout.toNanos();
    int seen = 0;
    synchronized (lines) {
      while (true) {
        for (; seen < lines.size(); seen++) {
          Matcher m = p.matcher(lines.get(seen));
          if (m.find()) {
            return m;
          }
        }
        long left = deadline - System.nanoTime();
        if (left <= 0 || (!process.isAlive() && seen == lines.size() && drained())) {
          throw new AssertionError("no line matching /" + regex + "/ within " + timeout + "; output:\n" + output());
        }
        try {
          lines.wait(Math.min(TimeUnit.NANOSECONDS.toMillis(left) + 1, 200));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new AssertionError(e);
        }
      }
    }
  }

  private boolean drained() {
    try {
      return process.getInputStream().available() == 0;
    } catch (IOException e) {
      return true;
    }
  }

  /** Writes {@code line} to the process's standard input (started with {@code talk}). */
  public void send(String line) {
    if (input == null) {
      throw new IllegalStateException(name + " was started with its standard input closed");
    }
    input.println(line);
    if (input.checkError()) {
      throw new AssertionError("cannot write to " + name + " (ended?); output:\n" + output());
    }
  }

  /** Waits for the process to exit and returns its exit code. */
  public int awaitExit(Duration timeout) {
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError("still running after " + timeout + "; output:\n" + output());
      }
      // the output is complete when the output thread has read to its end (a child process that
      // still holds the pipe could keep it open: then what has arrived after 10 s)
      pump.join(10_000);
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  public String output() {
    synchronized (lines) {
      return String.join("\n", lines);
    }
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** SIGKILL, as a crash would. */
  public void kill() {
    process.destroyForcibly();
  }

  /**
   * SIGTERM, as Ctrl-C would; waits for the exit. Sent through the process handle: {@link Process#destroy()}
   * also closes the pipes, which would lose what the process prints while it stops.
   */
  public int stop(Duration timeout) {
    process.toHandle().destroy();
    return awaitExit(timeout);
  }

  @Override
  public void close() {
    List<ProcessHandle> family = new ArrayList<>(process.descendants().toList());
    process.destroyForcibly();
    family.forEach(ProcessHandle::destroyForcibly);
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** An environment with a private PARL_HOME. */
  public static Map<String, String> env(Path parlHome) {
    Map<String, String> env = new HashMap<>();
    env.put("PARL_HOME", parlHome.toString());
    return env;
  }
}
