package org.parl.node;

import io.vertx.core.json.JsonObject;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.parl.cluster.ClusterInfo;
import org.parl.internal.net.HostPort;

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

  /**
   * The address of the master on this host whose monitor serves at {@code monitor}, if one does: for
   * the one sentence that corrects a monitor's port given as the master's.
   */
  public static Optional<String> masterOfMonitor(HostPort monitor) {
    for (JsonObject c : live()) {
      try {
        URI url = URI.create(c.getString("monitorUrl", ""));
        if (url.getPort() == monitor.port() && url.getHost() != null
            && InetAddress.getByName(url.getHost()).equals(InetAddress.getByName(monitor.host()))) {
          return Optional.ofNullable(c.getString("address"));
        }
      } catch (IllegalArgumentException | UnknownHostException e) {
        // not this one
      }
    }
    return Optional.empty();
  }

  /** The clusters whose master process is still alive. */
  public static List<JsonObject> live() {
    return ProcessRecords.live(ParlHome.clusters()).stream().map(ProcessRecords.Live::record).toList();
  }
}
