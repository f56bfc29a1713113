package org.parl.job;

import static org.parl.internal.wire.ErrorKind.INVALID;

import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.parl.internal.wire.DataMessage;

/**
 * What a create request ships, put in place: the actor's class loader over its code blobs, and
 * its distributed files copied into the working directory. Only blobs this host holds (checked
 * against their hash when they arrived) are used, and no file lands outside the working directory.
 */
final class ActorCode {

  private static final int MAX_FILE_NAME = 1024;

  private final BlobStore blobs;
  private final Path workDir;
  private final Libraries libraries;

  ActorCode(BlobStore blobs, Path workDir, Libraries libraries) {
    this.blobs = blobs;
    this.workDir = workDir;
    this.libraries = libraries;
  }

  /** A class loader over the code blobs: after the job's own loader, before the installation's libraries. */
  ClassLoader loader(List<String> code) throws CallFailure {
    URL[] urls = new URL[code.size()];
    for (int i = 0; i < urls.length; i++) {
      String hash = code.get(i);
      if (!blobs.has(hash)) {
        throw new CallFailure(INVALID, "code blob " + hash + " was not shipped to this job");
      }
      try {
        urls[i] = blobs.verified(hash).toUri().toURL();
      } catch (IOException e) {
        throw new CallFailure(INVALID, "code " + e.getMessage());
      }
    }
    return new ActorLoader(urls, libraries);
  }

  /** Copies the distributed files into the working directory, refusing names that leave it. */
  void placeFiles(List<DataMessage.ShippedFile> files) throws CallFailure {
    for (DataMessage.ShippedFile f : files) {
      Path target = safeTarget(f.name());
      if (!blobs.has(f.hash())) {
        throw new CallFailure(INVALID, "distributed file " + f.name() + " was not shipped");
      }
      try {
        Files.createDirectories(target.getParent());
        Files.copy(blobs.verified(f.hash()), target, StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException e) {
        throw new CallFailure(INVALID, "cannot place distributed file " + f.name() + ": " + e.getMessage());
      }
    }
  }

  private Path safeTarget(String name) throws CallFailure {
    if (name.isEmpty() || name.length() > MAX_FILE_NAME || name.indexOf('\0') >= 0) {
      throw new CallFailure(INVALID, "bad distributed file name");
    }
    Path base = workDir.toAbsolutePath().normalize();
    Path p = Path.of(name);
    Path target = base.resolve(p).normalize();
    if (p.isAbsolute() || !target.startsWith(base) || target.equals(base)) {
      throw new CallFailure(INVALID, "distributed file name '" + name + "' leaves the working directory");
    }
    return target;
  }
}
