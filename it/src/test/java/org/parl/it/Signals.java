package org.parl.it;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Sends a signal to processes by pid ({@code kill -STOP 123 456}), as the JDK cannot. */
final class Signals {

  private Signals() {}

  /** A process and all its descendants, parent first. */
  static List<Long> family(long pid) {
    List<Long> out = new ArrayList<>(List.of(pid));
    ProcessHandle.of(pid).ifPresent(p -> p.descendants().forEach(d -> out.add(d.pid())));
    return out;
  }

  /** Sends {@code SIG<signal>} to each pid that is still alive (one that ends meanwhile is skipped by kill). */
  static void send(String signal, List<Long> pids) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("kill", "-" + signal));
    pids.stream().filter(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
        .forEach(pid -> cmd.add(String.valueOf(pid)));
    if (cmd.size() == 2) {
      return;
    }
    Process kill = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    if (!kill.waitFor(10, TimeUnit.SECONDS)) {
      kill.destroyForcibly();
      throw new IOException(cmd + " did not finish within 10 s");
    }
  }
}
