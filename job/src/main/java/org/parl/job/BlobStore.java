package org.parl.job;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.parl.internal.wire.Hashes;

/**
 * Shipped code and files on a worker's host, named by content hash and shared by all jobs there,
 * so that the same jar is sent over the network once. Every blob is checked against its hash
 * before it is stored; a name that is not a hash never reaches the file system. The store is
 * bounded (docs/contract.md §8): each use touches the modification time of the blob's use mark
 * ({@code <hash>.used}, not the blob itself, whose change time must stay as it was hashed: see
 * {@link #verified}), and adding one evicts the least recently used blobs above the size cap,
 * except those used within {@link #IN_USE_MS}; a job that needs an evicted blob reports it missing
 * and its client ships it again.
 */
final class BlobStore {

  /** Blobs used this recently are never evicted: a job may be about to load them. */
  static final long IN_USE_MS = 10_000;
  private static final String JAR = ".jar";
  private static final String USED = ".used";

  private final Path dir;
  private final long maxBytes;
  /** What each blob this process hashed looked like then ({@link #verified}). */
  private final Map<String, Object> verified = new java.util.concurrent.ConcurrentHashMap<>();

  BlobStore(Path dir) throws IOException {
    this(dir, Long.MAX_VALUE);
  }

  /** @param maxBytes the size above which least recently used blobs are evicted */
  BlobStore(Path dir, long maxBytes) throws IOException {
    this.dir = Files.createDirectories(dir);
    this.maxBytes = maxBytes;
  }

  /** Whether the blob is here; if it is, it counts as used now. */
  boolean has(String hash) {
    if (!Hashes.valid(hash) || !Files.isRegularFile(path(hash))) {
      return false;
    }
    try {
      markUsed(hash);
    } catch (IOException e) {
      return Files.isRegularFile(path(hash)); // evicted meanwhile, or not ours to touch: still usable if there
    }
    return true;
  }

  private void markUsed(String hash) throws IOException {
    Path mark = useMark(hash);
    FileTime now = FileTime.fromMillis(System.currentTimeMillis());
    try {
      Files.setLastModifiedTime(mark, now);
    } catch (NoSuchFileException first) {
      try {
        Files.createFile(mark);
      } catch (FileAlreadyExistsException e) {
        Files.setLastModifiedTime(mark, now); // another job marked it meanwhile
      }
    }
  }

  /** The empty file whose modification time is the blob's last use. */
  Path useMark(String hash) {
    return markOf(path(hash));
  }

  Path path(String hash) {
    if (!Hashes.valid(hash)) {
      throw new IllegalArgumentException("not a content hash: " + hash);
    }
    return dir.resolve(hash + JAR);
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
    Path tmp = Files.createTempFile(dir, hash, PartFiles.SUFFIX);
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
    evict(System.currentTimeMillis());
  }

  /** Deletes least recently used blobs, not used within {@link #IN_USE_MS} of {@code now}, until the store fits its cap. */
  void evict(long now) throws IOException {
    List<Path> blobs;
    try (Stream<Path> files = Files.list(dir)) {
      blobs = files.filter(p -> p.getFileName().toString().endsWith(JAR)).toList();
    }
    long total = 0;
    Map<Path, Long> used = new HashMap<>();
    for (Path p : blobs) {
      try {
        total += Files.size(p);
        used.put(p, lastUse(p));
      } catch (NoSuchFileException e) {
        // evicted by another job process
      }
    }
    List<Path> oldestFirst = used.keySet().stream().sorted(Comparator.comparing(used::get)).toList();
    for (Path p : oldestFirst) {
      if (total <= maxBytes || now - used.get(p) < IN_USE_MS) {
        break;
      }
      try {
        long size = Files.size(p);
        Files.delete(p);
        Files.deleteIfExists(markOf(p));
        total -= size;
      } catch (NoSuchFileException e) {
        // evicted by another job process
      }
    }
  }

  /** When a blob was last used: its use mark's time, or its own when it was stored and never used since. */
  private static long lastUse(Path blob) throws IOException {
    long stored = Files.getLastModifiedTime(blob).toMillis();
    try {
      return Math.max(stored, Files.getLastModifiedTime(markOf(blob)).toMillis());
    } catch (NoSuchFileException e) {
      return stored;
    }
  }

  private static Path markOf(Path blob) {
    String name = blob.getFileName().toString();
    return blob.resolveSibling(name.substring(0, name.length() - JAR.length()) + USED);
  }

  /** Bytes the store holds now. */
  long size() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.mapToLong(p -> p.toFile().length()).sum();
    }
  }

  /**
   * The path of a blob about to be loaded, after checking that its content still hashes to its
   * name: the store is shared by the host's jobs, and one of them (its actor's code) could have
   * changed a file that later jobs load. A file is hashed again only when it changed since this
   * process last hashed it (its inode, size or change time, which no process of the user can set
   * back); a blob that no longer matches is deleted, so that its client ships it again.
   *
   * @throws IOException when the blob is missing or was changed
   */
  Path verified(String hash) throws IOException {
    Path file = path(hash);
    Object stamp = Hashes.stamp(file);
    if (stamp.equals(verified.get(hash))) {
      return file;
    }
    String actual = Hashes.sha256(file);
    if (!actual.equals(hash)) {
      verified.remove(hash);
      Files.deleteIfExists(file);
      throw new IOException("blob " + hash + " was changed on this host after it was stored (it hashed to " + actual
          + "): removed, ship it again");
    }
    verified.put(hash, stamp);
    return file;
  }
}
