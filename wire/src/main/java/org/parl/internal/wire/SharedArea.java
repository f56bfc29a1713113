package org.parl.internal.wire;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * A memory-mapped file that a client and a job on the same host share for large payloads, so that
 * big arrays do not cross the socket: a frame then carries only an offset and a length into the
 * area ({@link #slice}). The creator makes the file in a directory of its own (mode 0700), under
 * {@code /dev/shm} when the host has one, with mode 0600, so that no other user can open it; the
 * other side maps it only if it is a regular file of the announced size, owned by the same user,
 * with no permission for anyone else. Both sides unlink it ({@link #unlink}) as soon as both have
 * mapped it, so that nothing is left on disk when either process dies; the memory itself returns
 * when both mappings are gone.
 *
 * <p>Every offset and length a peer announces is checked against the area's size before a byte is
 * touched: a broken or hostile peer gets a {@link BadFrameException}, never a read out of bounds.
 */
public final class SharedArea implements AutoCloseable {

  /**
   * Arrays at least this large go through the area. Smaller ones are cheaper on the socket: they
   * ride in the same write as the rest of the frame, well inside the socket buffers, so the
   * claim and release of the area (two atomic operations on shared memory) would save nothing.
   */
  public static final int MIN_BYTES = 64 * 1024;

  /** Directories of areas are named {@code parl-area-PID-RANDOM}, PID being their creator's. */
  public static final String PREFIX = "parl-area-";
  /** The file in an area's directory. */
  public static final String FILE = "area";

  private static final Set<PosixFilePermission> OWNER_ONLY_FILE = PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> OWNER_ONLY_DIR = PosixFilePermissions.fromString("rwx------");

  private final Path file;
  private final MappedByteBuffer map;
  private final int size;

  /** Maps the file and closes {@code channel}: a mapping does not depend on its channel, so no descriptor is held. */
  private SharedArea(Path file, FileChannel channel, int size) throws IOException {
    this.file = file;
    this.size = size;
    try (channel) {
      this.map = channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
    }
  }

  /** Where areas are made on this host: {@code /dev/shm} (memory, not disk) when there is one, else {@code fallback}. */
  public static Path defaultParent(Path fallback) {
    Path shm = Path.of("/dev/shm");
    return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : fallback;
  }

  /**
   * Makes a new area of {@code size} bytes in a fresh private directory under {@code parent}.
   *
   * @throws IOException when the file cannot be made or mapped (the caller then keeps to the socket)
   */
  public static SharedArea create(Path parent, int size) throws IOException {
    if (size <= 0) {
      throw new IllegalArgumentException("an area needs a positive size, not " + size);
    }
    Path dir = Files.createTempDirectory(parent, PREFIX + ProcessHandle.current().pid() + "-",
        PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIR));
    Path file = dir.resolve(FILE);
    FileChannel ch = null;
    try {
      ch = FileChannel.open(file, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
          StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS), PosixFilePermissions.asFileAttribute(OWNER_ONLY_FILE));
      ch.write(ByteBuffer.allocate(1), size - 1L); // sets the length; on tmpfs the rest stays unallocated until used
      return new SharedArea(file, ch, size);
    } catch (IOException | RuntimeException e) {
      if (ch != null) {
        ch.close();
      }
      Files.deleteIfExists(file);
      Files.deleteIfExists(dir);
      throw e;
    }
  }

  /**
   * Maps an area the peer made, after checking that only this user can reach it.
   *
   * @throws IOException when it is not a regular file of {@code size} bytes, owned by this user,
   *     with no permission for group or others (or cannot be mapped)
   */
  public static SharedArea open(Path file, int size) throws IOException {
    if (size <= 0) {
      throw new BadFrameException("an area needs a positive size, not " + size);
    }
    PosixFileAttributes attrs = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (!attrs.isRegularFile()) {
      throw new IOException(file + " is not a regular file");
    }
    if (!attrs.owner().getName().equals(System.getProperty("user.name"))) {
      throw new IOException(file + " belongs to " + attrs.owner().getName() + ", not to this user");
    }
    if (!OWNER_ONLY_FILE.containsAll(attrs.permissions())) {
      throw new IOException(file + " can be reached by others (" + PosixFilePermissions.toString(attrs.permissions()) + ")");
    }
    if (attrs.size() != size) {
      throw new IOException(file + " has " + attrs.size() + " bytes, not the announced " + size);
    }
    FileChannel ch = FileChannel.open(file, Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE,
        LinkOption.NOFOLLOW_LINKS));
    try {
      if (ch.size() != size) {
        throw new IOException(file + " changed its size while it was opened");
      }
      return new SharedArea(file, ch, size);
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  /**
   * Whether {@code file} has the shape of an area's file ({@code PARENT/parl-area-PID-RANDOM/area},
   * absolute and normalised): a peer may announce no other path, so that it cannot have this
   * process map some other file of the same user.
   */
  public static boolean looksLikeArea(Path file) {
    Path dir = file.getParent();
    return file.isAbsolute() && file.normalize().equals(file) && file.getFileName().toString().equals(FILE)
        && dir != null && dir.getFileName() != null && creator(dir.getFileName().toString()) > 0;
  }

  /**
   * Removes the areas under {@code parent} whose creator has died before its peer mapped them (the
   * only moment at which an area's file exists without an owner to remove it). Only this user's
   * directories are touched; a failure to remove one is left for the next sweep.
   */
  public static void sweep(Path parent) {
    try (var dirs = Files.newDirectoryStream(parent, PREFIX + "*")) {
      String me = System.getProperty("user.name");
      for (Path dir : dirs) {
        long pid = creator(dir.getFileName().toString());
        if (pid > 0 && ProcessHandle.of(pid).isEmpty()
            && Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS).getName().equals(me)) {
          Files.deleteIfExists(dir.resolve(FILE));
          Files.deleteIfExists(dir);
        }
      }
    } catch (IOException | RuntimeException e) {
      // not this user's to clean, or gone meanwhile: nothing depends on the sweep
    }
  }

  /** The creator's pid in an area directory's name, or -1 when the name is not one. */
  static long creator(String dirName) {
    if (!dirName.startsWith(PREFIX)) {
      return -1;
    }
    String rest = dirName.substring(PREFIX.length());
    int dash = rest.indexOf('-');
    try {
      return dash > 0 ? Long.parseLong(rest.substring(0, dash)) : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The file, as announced to the peer. */
  public Path file() {
    return file;
  }

  public int size() {
    return size;
  }

  /**
   * A little-endian view of {@code length} bytes at {@code offset}, after checking that they lie
   * inside the area (both come from the peer).
   *
   * @throws BadFrameException when they do not
   */
  public ByteBuffer slice(long offset, long length) throws BadFrameException {
    checkInside(offset, length, size);
    return map.slice((int) offset, (int) length).order(ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * Checks that {@code length} bytes at {@code offset}, as a peer announced them, lie inside a
   * region of {@code size} bytes.
   *
   * @throws BadFrameException when they do not
   */
  static void checkInside(long offset, long length, long size) throws BadFrameException {
    if (offset < 0 || length < 0 || offset > size || length > size - offset) {
      throw new BadFrameException(length + " bytes at " + offset + " do not lie inside a shared area of " + size + " bytes");
    }
  }

  /**
   * Removes the file and its directory; both mappings stay valid. Called once both sides have
   * mapped it, and again on close (a second call does nothing).
   */
  public void unlink() {
    try {
      Files.deleteIfExists(file);
      Files.deleteIfExists(file.getParent());
    } catch (IOException e) {
      // the creator's own private directory: only a concurrent unlink by the peer gets here
    }
  }

  /** Unlinks the file; the mapping itself goes when it is collected (so that a late reader never faults). */
  @Override
  public void close() throws IOException {
    unlink();
  }
}
