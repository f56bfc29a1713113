package org.parl.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.parl.internal.wire.Hashes;

/** A blob is checked against its hash when it is loaded, not only when it is stored. */
class BlobVerificationTest {

  @TempDir
  Path tmp;

  @Test
  void aBlobChangedOnDiskIsRefusedAndRemoved() throws Exception {
    BlobStore store = new BlobStore(tmp.resolve("blobs"));
    byte[] code = "the actor's classes".getBytes();
    String hash = Hashes.sha256(code);
    store.put(hash, code, 0, code.length);
    assertEquals(store.path(hash), store.verified(hash));
    assertEquals(store.path(hash), store.verified(hash), "unchanged: accepted again without hashing");

    Files.write(store.path(hash), "another job's code".getBytes());
    IOException e = assertThrows(IOException.class, () -> store.verified(hash));
    assertTrue(e.getMessage().contains("was changed on this host after it was stored"), e.getMessage());
    assertFalse(store.has(hash), "removed, so that its client ships it again");
  }

  @Test
  void aSameSizeRewriteIsFoundToo() throws Exception {
    BlobStore store = new BlobStore(tmp.resolve("blobs"));
    byte[] code = "0123456789".getBytes();
    String hash = Hashes.sha256(code);
    store.put(hash, code, 0, code.length);
    store.verified(hash);
    long mtime = Files.getLastModifiedTime(store.path(hash)).toMillis();
    Files.write(store.path(hash), "9876543210".getBytes());
    Files.setLastModifiedTime(store.path(hash), java.nio.file.attribute.FileTime.fromMillis(mtime));
    assertThrows(IOException.class, () -> store.verified(hash), "the change time gives it away, whatever the modification time");
  }

  @Test
  void aMissingBlobIsAnError() throws Exception {
    BlobStore store = new BlobStore(tmp.resolve("blobs"));
    assertThrows(IOException.class, () -> store.verified("0".repeat(64)));
  }
}
