package org.parl.job;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.parl.wire.Hashes;

/**
 * Shipped code and files on a worker's host, named by content hash and shared by all jobs there,
 * so that the same jar is sent over the network once. Every blob is checked against its hash
 * before it is stored; a name that is not a hash never reaches the file system.
 */
final class BlobStore {

  private final Path dir;

  BlobStore(Path dir) throws IOException {
    this.dir = Files.createDirectories(dir);
  }

  boolean has(String hash) {
    return Hashes.valid(hash) && Files.isRegularFile(path(hash));
  }

  Path path(String hash) {
    if (!Hashes.valid(hash)) {
      throw new IllegalArgumentException("not a content hash: " + hash);
    }
    return dir.resolve(hash + ".jar");
  }

  /** Stores bytes that must hash to {@code hash}; concurrent stores of one blob are harmless. */
  void put(String hash, byte[] data, int offset, int length) throws IOException {
    if (!Hashes.valid(hash)) {
      throw new IOException("not a content hash: " + hash);
    }
    String actual = Hashes.sha256(data, offset, length);
    if (!actual.equals(hash)) {
      throw new IOException("blob announced as " + hash + " hashes to " + actual);
    }
    if (has(hash)) {
      return;
    }
    Path tmp = Files.createTempFile(dir, hash, ".part");
    try {
      Files.write(tmp, java.util.Arrays.copyOfRange(data, offset, offset + length));
      try {
        Files.move(tmp, path(hash), StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException | FileAlreadyExistsException e) {
        Files.move(tmp, path(hash), StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
