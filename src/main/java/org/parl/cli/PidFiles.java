package org.parl.cli;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The pid files of nodes started with {@code --detach}. A record names the process by pid and
 * start time, so that a recycled pid is never mistaken for a parl node.
 */
final class PidFiles {

  /** A live node from a pid file. */
  record Node(Path file, String role, ProcessHandle process, String log) {}

  private PidFiles() {}

  static void write(String role, ProcessHandle h, Path log, List<String> args) {
    Path file = ParlHome.run().resolve(role + "-" + h.pid() + ".json");
    try {
      Files.writeString(file, Detacher.record(role, h, log, args).encodePrettily());
    } catch (IOException e) {
      throw new CliFailure("cannot write the pid file " + file + ": " + e.getMessage());
    }
  }

  /** The nodes whose process still runs; stale files are removed. */
  static List<Node> live() {
    List<Node> nodes = new ArrayList<>();
    if (!Files.isDirectory(ParlHome.run())) {
      return nodes;
    }
    try (Stream<Path> files = Files.list(ParlHome.run())) {
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
        read(f).ifPresentOrElse(nodes::add, () -> delete(f));
      }
    } catch (IOException e) {
      throw new CliFailure("cannot read " + ParlHome.run() + ": " + e.getMessage());
    }
    return nodes;
  }

  private static Optional<Node> read(Path f) {
    try {
      JsonObject o = new JsonObject(Files.readString(f));
      Optional<ProcessHandle> h = ProcessHandle.of(o.getLong("pid"));
      String started = o.getString("startedAt", "");
      if (h.isPresent() && h.get().isAlive()
          && h.get().info().startInstant().map(Object::toString).orElse("").equals(started)) {
        return Optional.of(new Node(f, o.getString("role", "node"), h.get(), o.getString("log", "")));
      }
    } catch (IOException | RuntimeException e) {
      // unreadable: treated as stale
    }
    return Optional.empty();
  }

  static void delete(Path f) {
    try {
      Files.deleteIfExists(f);
    } catch (IOException e) {
      // nothing more to do
    }
  }
}
