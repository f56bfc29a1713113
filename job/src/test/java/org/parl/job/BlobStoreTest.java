package org.parl.job;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.parl.wire.Hashes;

/** The shipped-code cache evicts least recently used blobs above its cap, never one in use. */
class BlobStoreTest {

  @TempDir
  Path tmp;

  private static String put(BlobStore store, byte[] data) throws Exception {
    String hash = Hashes.sha256(data, 0, data.length);
    store.put(hash, data, 0, data.length);
    return hash;
  }

  private static void age(BlobStore store, String hash, long msAgo) throws Exception {
    Files.setLastModifiedTime(store.path(hash), FileTime.fromMillis(System.currentTimeMillis() - msAgo));
  }

  @Test
  void theLeastRecentlyUsedBlobGoesFirst() throws Exception {
    BlobStore store = new BlobStore(tmp.resolve("blobs"), 2500);
    String a = put(store, new byte[1000]);
    String b = put(store, new byte[] {1, 2, 3});
    age(store, a, 60_000);
    age(store, b, 120_000);
    assertTrue(store.has(a), "a use touches the blob");
    String c = put(store, new byte[1500]);
    assertTrue(store.has(a) && store.has(c));
    assertTrue(store.size() <= 2500 || store.has(b), "under the cap, or nothing could go");
    age(store, a, 60_000);
    age(store, c, 30_000);
    put(store, new byte[2000]);
    assertFalse(store.has(a), "the least recently used blob was evicted");
    assertFalse(store.has(b));
  }

  @Test
  void aBlobInUseStaysEvenAboveTheCap() throws Exception {
    BlobStore store = new BlobStore(tmp.resolve("blobs"), 10);
    String a = put(store, new byte[100]);
    String b = put(store, new byte[200]);
    assertTrue(store.has(a) && store.has(b), "both were used just now");
    age(store, a, BlobStore.IN_USE_MS + 1000);
    put(store, new byte[300]);
    assertFalse(store.has(a), "once no longer in use, it goes");
  }
}
