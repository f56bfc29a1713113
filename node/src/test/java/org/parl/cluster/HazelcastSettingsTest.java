package org.parl.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.hazelcast.config.Config;
import java.util.List;
import org.junit.jupiter.api.Test;

class HazelcastSettingsTest {

  /**
   * Two members that die together (a worker and the active master, say) must not take an entry
   * with them: each map has a copy besides the one its write waits for.
   */
  @Test
  void everyMapOfTheClusterKeepsTwoCopiesBesidesItsOwner() {
    Config config = HazelcastSettings.build(null, "parl-test", "127.0.0.1", null, "test", false);
    for (String map : List.of(Addresses.WORKERS_MAP, Addresses.JOBS_MAP, Addresses.CLIENTS_MAP, Addresses.CLIENT_TICKETS,
        Addresses.MASTERS_MAP, Addresses.CLUSTER_MAP, Addresses.STATS_MAP, "__vertx.haInfo", "__vertx.nodeInfo")) {
      assertEquals(1, config.getMapConfig(map).getBackupCount(), map + ": copies a write waits for");
      assertEquals(2, config.getMapConfig(map).getTotalBackupCount(), map + ": copies in all");
    }
    assertEquals(1, config.getMultiMapConfig("__vertx.subs").getBackupCount());
    assertEquals(2, config.getMultiMapConfig("__vertx.subs").getTotalBackupCount());
  }
}
