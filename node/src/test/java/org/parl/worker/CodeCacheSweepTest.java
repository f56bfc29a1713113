package org.parl.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.parl.job.PartFiles;

class CodeCacheSweepTest {

  @TempDir
  Path cache;

  private Path file(String name, long ageMs) throws Exception {
    Path p = Files.write(cache.resolve(name), new byte[100]);
    Files.setLastModifiedTime(p, FileTime.fromMillis(System.currentTimeMillis() - ageMs));
    return p;
  }

  @Test
  void unfinishedTransfersOlderThanTheBoundGoWhenTheWorkerStartsAndLaterOnes() throws Exception {
    Path killed = file("ab12" + "0".repeat(60) + "123456.part", CodeCacheSweep.MAX_AGE_MS + 60_000);
    Path writing = file("cd34" + "0".repeat(60) + "654321.part", 1_000);
    Path oldBlob = file("ef56" + "0".repeat(60) + ".jar", CodeCacheSweep.MAX_AGE_MS * 10);
    Vertx vertx = Vertx.vertx();
    try {
      assertEquals(1, new CodeCacheSweep(cache).start(vertx).await(10, TimeUnit.SECONDS), "swept at start");
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
    assertFalse(Files.exists(killed), "a killed transfer's file is removed");
    assertTrue(Files.exists(writing), "a transfer under way is left alone");
    assertTrue(Files.exists(oldBlob), "blobs are the cache's eviction's business");

    // the scheduled sweep: the same pass, later
    Files.setLastModifiedTime(writing, FileTime.fromMillis(System.currentTimeMillis() - CodeCacheSweep.MAX_AGE_MS - 1));
    assertEquals(1, PartFiles.sweep(cache, System.currentTimeMillis(), CodeCacheSweep.MAX_AGE_MS));
    assertFalse(Files.exists(writing));
    assertEquals(0, PartFiles.sweep(cache.resolve("absent"), System.currentTimeMillis(), 0));
  }
}
