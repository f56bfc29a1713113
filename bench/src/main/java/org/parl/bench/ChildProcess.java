package org.parl.bench;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A process the benchmark started: its output goes to a log file and is watched for lines; closing
 * it stops it (SIGTERM, then SIGKILL) together with the processes it started, all by pid.
 */
final class ChildProcess implements AutoCloseable {

  private static final Duration GRACE = Duration.ofSeconds(8);

  private final String name;
  private final Process process;
  private final Path log;
  private final List<String> lines = new ArrayList<>();
  private List<ProcessHandle> family;
  /** Its standard input, for a process started with {@link #startReading}; else null. */
  private PrintWriter input;

  private ChildProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  static ChildProcess start(String name, List<String> command, Map<String, String> env, Path log) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    pb.environment().putAll(env);
    ChildProcess p = new ChildProcess(name, pb.start(), log);
    p.pump();
    return p;
  }

  /** Like {@link #start}, with a standard input that {@link #send} writes lines to. */
  static ChildProcess startReading(String name, List<String> command, Map<String, String> env, Path log)
      throws IOException {
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().putAll(env);
    ChildProcess p = new ChildProcess(name, pb.start(), log);
    p.input = new PrintWriter(new OutputStreamWriter(p.process.getOutputStream(), StandardCharsets.UTF_8), true);
    p.pump();
    return p;
  }

  /** Writes one line to the standard input of a process started with {@link #startReading}. */
  void send(String line) {
    input.println(line);
  }

  /** How many lines of output were seen so far: where {@link #awaitLine} looks from for what comes next. */
  int lineCount() {
    synchronized (lines) {
      return lines.size();
    }
  }

  private void pump() throws IOException {
    PrintWriter out = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true);
    Thread t = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          out.println(line);
          synchronized (lines) {
            lines.add(line);
            lines.notifyAll();
          }
        }
      } catch (IOException e) {
        // the process ended
      } finally {
        out.close();
        synchronized (lines) {
          lines.notifyAll();
        }
      }
    }, "bench-output-" + name);
    t.setDaemon(true);
    t.start();
  }

  /**
   * Waits for an output line matching {@code regex}, from the {@code from}-th line on.
   *
   * @return the match, or empty when the process ended or the time ran out first
   */
  Optional<Matcher> awaitLine(Pattern regex, int from, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    int seen = from;
    synchronized (lines) {
      while (true) {
        for (; seen < lines.size(); seen++) {
          Matcher m = regex.matcher(lines.get(seen));
          if (m.find()) {
            return Optional.of(m);
          }
        }
        long left = deadline - System.nanoTime();
        if (left <= 0 || (!process.isAlive() && outputDone())) {
          return Optional.empty();
        }
        lines.wait(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), 100)));
      }
    }
  }

  private boolean outputDone() {
    try {
      return process.getInputStream().available() == 0;
    } catch (IOException e) {
      return true;
    }
  }

  /** Every line of output so far that matches {@code regex}, in order. */
  List<Matcher> matches(Pattern regex) {
    synchronized (lines) {
      return lines.stream().map(regex::matcher).filter(Matcher::find).toList();
    }
  }

  /** The last few lines of output, for an error message. */
  String tail(int n) {
    synchronized (lines) {
      return String.join(" | ", lines.subList(Math.max(0, lines.size() - n), lines.size()));
    }
  }

  long pid() {
    return process.pid();
  }

  Path log() {
    return log;
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** Waits for the process to end by itself; its exit code, or -1 if it is still running. */
  int awaitExit(Duration timeout) throws InterruptedException {
    return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
  }

  /** Sends SIGTERM (a clean stop: a master then stops its jobs), remembering the processes it started. */
  synchronized void terminate() {
    if (family == null) {
      family = process.descendants().toList();
    }
    process.destroy();
  }

  /** {@link #terminate()}, then SIGKILL for whatever is left after a grace period, descendants included. */
  @Override
  public void close() {
    terminate();
    try {
      if (!process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    family.forEach(ProcessHandle::destroyForcibly);
  }
}
