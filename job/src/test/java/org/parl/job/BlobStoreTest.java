package org.parl.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.parl.internal.wire.Hashes;

/** The shipped-code cache evicts least recently used blobs above its cap, never one in use, and a use leaves a blob unchanged. */
class BlobStoreTest {

  @TempDir
  Path tmp;

  private static String put(BlobStore store, byte[] data) throws Exception {
    String hash = Hashes.sha256(data, 0, data.length);
    store.put(hash, data, 0, data.length);
    return hash;
  }

  private static void age(BlobStore store, String hash, long msAgo) throws Exception {
    FileTime then = FileTime.fromMillis(System.currentTimeMillis() - msAgo);
    Files.setLastModifiedTime(store.path(hash), then);
    if (Files.exists(store.useMark(hash))) {
      Files.setLastModifiedTime(store.useMark(hash), then);
    }
  }

  @Test
  void aUseLeavesTheBlobAsItWasHashed() throws Exception {
    BlobStore store = new BlobStore(tmp.resolve("blobs"), 1 << 20);
    String a = put(store, new byte[] {4, 5, 6});
    Object hashed = Hashes.stamp(store.verified(a));
    Thread.sleep(20); // past the file system's time stamp granularity
    assertTrue(store.has(a));
    assertTrue(store.has(a));
    assertEquals(hashed, Hashes.stamp(store.path(a)), "a use changed the blob's change time: every load would hash it again");
    assertTrue(Files.exists(store.useMark(a)), "the use is marked beside it");
  }

  @Test
  void anEvictedBlobTakesItsUseMarkWithIt() throws Exception {
    BlobStore store = new BlobStore(tmp.resolve("blobs"), 150);
    String a = put(store, new byte[100]);
    assertTrue(store.has(a));
    age(store, a, BlobStore.IN_USE_MS + 1000);
    put(store, new byte[101]);
    assertFalse(Files.exists(store.path(a)));
    assertFalse(Files.exists(store.useMark(a)), "the use mark of an evicted blob stays behind");
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
