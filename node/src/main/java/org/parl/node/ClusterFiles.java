package org.parl.node;

import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import org.parl.cluster.ClusterInfo;

/**
 * One small file per master running on this host, so that {@code parl status} knows which
 * clusters to ask. Written at start, removed at a clean stop; a file whose process is gone is
 * ignored and removed.
 */
public final class ClusterFiles {

  private ClusterFiles() {}

  /** Records the master's public address; the Hazelcast cluster name stays out of files (docs/contract.md §9). */
  public static Path write(ClusterInfo info) {
    JsonObject record = info.toJson();
    record.remove("clusterName");
    return ProcessRecords.write(ParlHome.clusters().resolve(info.address().replace(':', '_') + ".json"),
        ProcessHandle.current(), record);
  }

  public static void remove(Path file) {
    ProcessRecords.delete(file);
  }

  /** The clusters whose master process is still alive. */
  public static List<JsonObject> live() {
    return ProcessRecords.live(ParlHome.clusters()).stream().map(ProcessRecords.Live::record).toList();
  }
}
