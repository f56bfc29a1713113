package org.parl.job.tree;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A process as Linux's {@code /proc/PID/stat} describes it: its state, parent, process group and
 * session. Blocking (tiny reads); empty when the process is gone or this is not Linux.
 *
 * @param pid the process id
 * @param state one letter: {@code R}, {@code S}, {@code D}, {@code Z} (a zombie: it has exited), ...
 * @param ppid its parent's pid
 * @param pgrp its process group
 * @param session its session
 */
public record ProcStat(long pid, char state, long ppid, long pgrp, long session) {

  /** The process, if it exists. */
  public static Optional<ProcStat> of(long pid) {
    try {
      return parse(pid, Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Parses the line; the command name (field 2) is in parentheses and may hold spaces or parentheses. */
  public static Optional<ProcStat> parse(long pid, String line) {
    int close = line.lastIndexOf(')');
    if (close < 0 || close + 2 >= line.length()) {
      return Optional.empty();
    }
    String[] f = line.substring(close + 2).trim().split(" ");
    if (f.length < 4 || f[0].length() != 1) {
      return Optional.empty();
    }
    try {
      return Optional.of(new ProcStat(pid, f[0].charAt(0), Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3])));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** Whether the process exists and has not exited (a zombie has: it only waits to be reaped). */
  public static boolean running(long pid) {
    return of(pid).filter(s -> s.state != 'Z' && s.state != 'X').isPresent();
  }

  /** Every running process of a session. */
  public static List<Long> inSession(long session) {
    List<Long> out = new ArrayList<>();
    try (Stream<Path> all = Files.list(Path.of("/proc"))) {
      all.map(p -> p.getFileName().toString()).filter(n -> !n.isEmpty() && n.chars().allMatch(Character::isDigit))
          .map(Long::parseLong)
          .forEach(pid -> of(pid).filter(s -> s.session == session && s.state != 'Z' && s.state != 'X')
              .ifPresent(s -> out.add(pid)));
    } catch (IOException | RuntimeException e) {
      // no /proc: nothing found
    }
    return out;
  }
}
