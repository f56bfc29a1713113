package org.parl.node;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.parl.internal.security.PrivatePaths;

/**
 * A folder of small JSON files, each about one running process of this host (a master's cluster,
 * a detached node). A record names its process by pid and start time, so that a recycled pid is
 * never mistaken for it; records whose process is gone are removed when read.
 */
public final class ProcessRecords {

  /** A record whose process still runs. */
  public record Live(Path file, JsonObject record, ProcessHandle process) {}

  private ProcessRecords() {}

  /** Writes {@code record} (plus the process's pid and start time) atomically to {@code file}. */
  public static Path write(Path file, ProcessHandle process, JsonObject record) {
    try {
      PrivatePaths.createDirectories(file.getParent());
      JsonObject o = record.copy()
          .put("pid", process.pid())
          .put("startedAt", startedAt(process));
      Path tmp = Files.createTempFile(file.getParent(), "record", ".tmp");
      Files.writeString(tmp, o.encodePrettily());
      try {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new NodeFailure("cannot write " + file + ": " + e.getMessage());
    }
    return file;
  }

  /** The records of {@code dir} whose process still runs, in file-name order. */
  public static List<Live> live(Path dir) {
    List<Live> live = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return live;
    }
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
        read(f).ifPresentOrElse(live::add, () -> delete(f));
      }
    } catch (IOException e) {
      throw new NodeFailure("cannot read " + dir + ": " + e.getMessage());
    }
    return live;
  }

  private static Optional<Live> read(Path f) {
    try {
      JsonObject o = new JsonObject(Files.readString(f));
      Optional<ProcessHandle> h = ProcessHandle.of(o.getLong("pid"));
      if (h.isPresent() && h.get().isAlive() && startedAt(h.get()).equals(o.getString("startedAt", ""))) {
        return Optional.of(new Live(f, o, h.get()));
      }
    } catch (IOException | RuntimeException e) {
      // a half-written or foreign file: treated as stale
    }
    return Optional.empty();
  }

  public static void delete(Path f) {
    try {
      Files.deleteIfExists(f);
    } catch (IOException e) {
      // nothing more to do; readers skip records of dead processes anyway
    }
  }

  private static String startedAt(ProcessHandle h) {
    return h.info().startInstant().map(Object::toString).orElse("");
  }
}
