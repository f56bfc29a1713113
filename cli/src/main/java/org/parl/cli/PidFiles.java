package org.parl.cli;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import org.parl.node.ParlHome;
import org.parl.node.ProcessRecords;

/** The pid files of nodes started with {@code --detach}, read by {@code parl stop}. */
final class PidFiles {

  /** A live node from a pid file. */
  record Node(Path file, String role, ProcessHandle process) {}

  private PidFiles() {}

  static void write(String role, ProcessHandle h, Path log, List<String> args) {
    ProcessRecords.write(ParlHome.run().resolve(role + "-" + h.pid() + ".json"), h, new JsonObject()
        .put("role", role)
        .put("log", log.toString())
        .put("args", new JsonArray(args)));
  }

  /** The nodes whose process still runs; stale files are removed. */
  static List<Node> live() {
    return ProcessRecords.live(ParlHome.run()).stream()
        .map(r -> new Node(r.file(), r.record().getString("role", "node"), r.process()))
        .toList();
  }

  static void delete(Path f) {
    ProcessRecords.delete(f);
  }
}
