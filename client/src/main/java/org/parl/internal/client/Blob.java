package org.parl.internal.client;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.parl.internal.wire.ClassPaths;
import org.parl.internal.wire.Hashes;

/**
 * Something shipped to jobs by content hash: a class-path entry or a distributed file. A class
 * folder is packed once and its bytes kept, so that what is sent is exactly what was hashed.
 */
record Blob(String hash, String name, Path source, byte[] packed) {

  static Blob of(Path source, String name) throws IOException {
    if (Files.isDirectory(source)) {
      byte[] bytes = ClassPaths.packFolder(source);
      return new Blob(Hashes.sha256(bytes), name, source, bytes);
    }
    return new Blob(ClassPaths.hash(source), name, source, null);
  }

  byte[] content() throws IOException {
    return packed != null ? packed : Files.readAllBytes(source);
  }
}
