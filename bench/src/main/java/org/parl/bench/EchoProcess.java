package org.parl.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** A plain-TCP echo server JVM ({@link EchoServer}) the benchmark started, once it listens. */
record EchoProcess(ChildProcess process, int port) {

  private static final Pattern PORT = Pattern.compile(Pattern.quote(EchoServer.PORT_LINE) + "(\\d+)");
  private static final Duration START = Duration.ofSeconds(60);

  /**
   * Starts {@code command} (one that runs {@link EchoServer}) and waits for its port.
   *
   * @throws IllegalStateException when it does not say its port within a minute
   */
  static EchoProcess start(ChildProcesses children, String name, List<String> command, Path log)
      throws IOException, InterruptedException {
    ChildProcess p = children.add(ChildProcess.start(name, command, Map.of(), log));
    int port = Integer.parseInt(p.awaitLine(PORT, 0, START)
        .orElseThrow(() -> new IllegalStateException("the plain-TCP echo server " + name + " did not start: " + p.tail(3)
            + " (its log: " + p.log() + ")"))
        .group(1));
    return new EchoProcess(p, port);
  }
}
