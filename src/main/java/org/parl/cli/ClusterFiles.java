package org.parl.cli;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.parl.cluster.ClusterInfo;

/**
 * One small file per master running on this host, so that {@code parl status} knows which
 * clusters to ask. Written at start, removed at a clean stop; a file whose process is gone is
 * ignored and removed.
 */
final class ClusterFiles {

  private ClusterFiles() {}

  static Path write(ClusterInfo info) {
    Path file = ParlHome.clusters().resolve(info.address().replace(':', '_') + ".json");
    try {
      Files.createDirectories(file.getParent());
      JsonObject o = info.toJson().put("pid", ProcessHandle.current().pid());
      Path tmp = Files.createTempFile(file.getParent(), "cluster", ".tmp");
      Files.writeString(tmp, o.encodePrettily());
      Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new CliFailure("cannot write " + file + ": " + e.getMessage());
    }
    return file;
  }

  static void remove(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // nothing more to do while shutting down; status ignores files of dead processes
    }
  }

  /** The clusters whose master process is still alive. */
  static List<JsonObject> live() {
    List<JsonObject> live = new ArrayList<>();
    if (!Files.isDirectory(ParlHome.clusters())) {
      return live;
    }
    try (Stream<Path> files = Files.list(ParlHome.clusters())) {
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
        try {
          JsonObject o = new JsonObject(Files.readString(f));
          long pid = o.getLong("pid", -1L);
          if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            live.add(o);
          } else {
            Files.deleteIfExists(f);
          }
        } catch (IOException | RuntimeException e) {
          // a half-written or foreign file: skip it
        }
      }
    } catch (IOException e) {
      return live;
    }
    return live;
  }
}
