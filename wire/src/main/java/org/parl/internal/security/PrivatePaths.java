package org.parl.internal.security;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Optional;
import java.util.Set;

/**
 * Files and folders that only their owner may read: {@code PARL_HOME} and what it holds (the
 * token, logs, pid files). They are created with their final mode in the same system call
 * ({@code open}/{@code mkdir} with the mode), so there is no moment in which another local user
 * could open them; the umask can only take bits away. On a file system without POSIX
 * permissions they are created plainly.
 */
public final class PrivatePaths {

  /** {@code rwx------}. */
  public static final Set<PosixFilePermission> DIR = PosixFilePermissions.fromString("rwx------");
  /** {@code rw-------}. */
  public static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

  private PrivatePaths() {}

  /** Creates {@code dir} and the missing folders above it, each one {@code 0700}. */
  public static Path createDirectories(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      return dir;
    }
    return posix(dir) ? Files.createDirectories(dir, attribute(DIR)) : Files.createDirectories(dir);
  }

  /**
   * Creates {@code file} empty with mode {@code 0600} (and its folder, {@code 0700}) when it does
   * not exist; an existing file is left as it is.
   *
   * @return whether it was created
   */
  public static boolean createFileIfAbsent(Path file) throws IOException {
    createDirectories(file.toAbsolutePath().getParent());
    try {
      if (posix(file)) {
        Files.createFile(file, attribute(FILE));
      } else {
        Files.createFile(file);
      }
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    }
  }

  /**
   * Writes {@code content} to a new file {@code file}, mode {@code 0600} from its first byte.
   *
   * @throws FileAlreadyExistsException when it exists already (nothing is written then)
   */
  public static void writeNew(Path file, byte[] content) throws IOException {
    createDirectories(file.toAbsolutePath().getParent());
    FileAttribute<?>[] attrs = posix(file)
        ? new FileAttribute<?>[] {attribute(FILE)} : new FileAttribute<?>[0];
    try (SeekableByteChannel ch = Files.newByteChannel(file,
        Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), attrs)) {
      ByteBuffer b = ByteBuffer.wrap(content);
      while (b.hasRemaining()) {
        ch.write(b);
      }
    }
  }

  /**
   * Makes an existing folder that others may enter private again: a folder of this user with any
   * group or other permission is set to {@code 0700}; one of another user is left alone.
   *
   * @return one sentence for the operator when something was changed or cannot be, else empty
   */
  public static Optional<String> tighten(Path dir) {
    try {
      if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) || !posix(dir)) {
        return Optional.empty();
      }
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
      if (DIR.containsAll(perms)) {
        return Optional.empty();
      }
      UserPrincipal owner = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS);
      String me = System.getProperty("user.name");
      if (!owner.getName().equals(me)) {
        return Optional.of("warning: " + dir + " belongs to " + owner.getName() + " and other users may open it ("
            + PosixFilePermissions.toString(perms) + "); it holds the cluster token's folder and logs: use a "
            + "PARL_HOME of your own, mode 700");
      }
      Files.setPosixFilePermissions(dir, DIR);
      return Optional.of("made " + dir + " private (" + PosixFilePermissions.toString(perms) + " -> rwx------): "
          + "it holds the cluster token and logs");
    } catch (IOException e) {
      return Optional.of("warning: cannot make " + dir + " private: " + e.getMessage());
    }
  }

  private static FileAttribute<Set<PosixFilePermission>> attribute(Set<PosixFilePermission> perms) {
    return PosixFilePermissions.asFileAttribute(perms);
  }

  private static boolean posix(Path p) {
    return p.getFileSystem().supportedFileAttributeViews().contains("posix");
  }
}
