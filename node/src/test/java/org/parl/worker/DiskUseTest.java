package org.parl.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.parl.limits.LimitSettings;

/** The disk caps' use as a worker reports it: all job logs, the largest live one, the code cache; and their caps. */
class DiskUseTest {

  @Test
  void logsAndCacheAreMeasuredNextToTheirCaps(@TempDir Path dir) throws Exception {
    Path logs = Files.createDirectories(dir.resolve("logs"));
    Path cache = Files.createDirectories(dir.resolve("blobs"));
    Files.write(logs.resolve("w1-1.log"), new byte[300]);
    Files.write(logs.resolve("w1-1.log.1"), new byte[50]);
    Files.write(logs.resolve("w1-2.log"), new byte[700]);
    Files.write(logs.resolve("notes.txt"), new byte[9999]);
    Files.write(cache.resolve("ab.jar"), new byte[1000]);
    Files.write(cache.resolve("cd.jar"), new byte[24]);
    Files.write(cache.resolve("ef.jar123.part"), new byte[5000]);
    LimitSettings caps = new LimitSettings(64, 1024, 64, 1000, 4096, 24, 1000, 8192);
    JsonObject use = DiskUse.read(logs, cache, caps);
    assertEquals(new JsonObject().put("logBytes", 1050L).put("largestLogBytes", 700L).put("logMaxBytes", 4096L)
        .put("codeCacheBytes", 1024L).put("codeCacheMaxBytes", 8192L), use);
  }

  @Test
  void missingFoldersHoldNothing(@TempDir Path dir) {
    JsonObject use = DiskUse.read(dir.resolve("no-logs"), dir.resolve("no-cache"), LimitSettings.DEFAULTS);
    assertEquals(0L, use.getLong("logBytes"));
    assertEquals(0L, use.getLong("largestLogBytes"));
    assertEquals(0L, use.getLong("codeCacheBytes"));
    assertEquals(LimitSettings.DEFAULTS.logMaxBytes(), use.getLong("logMaxBytes"));
  }
}
