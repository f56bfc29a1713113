package org.parl.worker.gpu;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import org.parl.command.TimedCommand;

/**
 * Host-wide claims on the GPUs a worker lends, so that one physical GPU is lent by one worker of this
 * host at a time, whichever cluster or user it belongs to.
 *
 * <p>One file per device in a folder every user of the host shares ({@link #folder()}), named by the
 * device's UUID ({@code GPU-...}, or {@code MIG-...} for a MIG instance), or {@code index-N} for a unit
 * whose inventory gives no UUID (then two listings of one host must agree on indices, as nvidia-smi's
 * do with {@code CUDA_DEVICE_ORDER=PCI_BUS_ID}). The claim is an exclusive file lock, which the kernel
 * drops when the holder's process ends however it ends, so a crashed worker never keeps a GPU; the file
 * names its holder for the refusal's message and is removed when the holder stops.
 */
public final class GpuLocks implements AutoCloseable {

  /** Where the claims are kept, if not in {@link #DEFAULT_FOLDER}: for hosts without {@code /run/lock}. */
  public static final String ENV = "PARL_GPU_LOCKS";
  static final Path DEFAULT_FOLDER = Path.of("/run/lock/parl-gpus");
  private static final int MAX_HOLDER_BYTES = 1024;

  /** A claim refused: one sentence for the operator, without a stack trace. */
  public static final class Refused extends RuntimeException {

    Refused(String sentence) {
      super(sentence, null, false, false);
    }
  }

  private record Claim(Path file, FileChannel channel, FileLock lock) {}

  private final List<Claim> claims;

  private GpuLocks(List<Claim> claims) {
    this.claims = claims;
  }

  /** The shared folder of claims: {@value #ENV}, else {@code /run/lock/parl-gpus}, else under the temporary folder. */
  public static Path folder() {
    String env = System.getenv(ENV);
    if (env != null && !env.isBlank()) {
      return Path.of(env);
    }
    return Files.isDirectory(DEFAULT_FOLDER.getParent()) ? DEFAULT_FOLDER
        : Path.of(System.getProperty("java.io.tmpdir"), "parl-gpus");
  }

  /**
   * The units a worker lends, as its inventory describes them; a lent id the inventory does not describe
   * (it could not be read) is known by its index.
   *
   * @param lent the GPU ids the worker lends
   * @param described the units its inventory described when it started
   */
  public static List<GpuDevice> units(List<Integer> lent, List<GpuDevice> described) {
    List<GpuDevice> units = new ArrayList<>();
    for (int id : lent) {
      units.add(described.stream().filter(d -> d.index() == id).findFirst()
          .orElse(new GpuDevice(id, null, "", 0, 0, 0)));
    }
    return units;
  }

  /** The name of a unit's claim: its UUID, or its index where the inventory gives none. */
  static String name(GpuDevice device) {
    String uuid = device.uuid();
    if (uuid != null && uuid.matches("(GPU|MIG)-[0-9A-Za-z-]{1,100}")) {
      return uuid;
    }
    return "index-" + device.index();
  }

  /**
   * Claims every unit of {@code lent} for {@code holder} (a line naming the worker and its cluster), all
   * or none: blocking file I/O, for a worker thread.
   *
   * @throws Refused naming the unit and the worker that holds it when another process of this host
   *     lends one of them, or when the folder cannot be used
   */
  public static GpuLocks claim(Path folder, List<GpuDevice> lent, String holder) {
    List<Claim> taken = new ArrayList<>();
    try {
      prepare(folder);
      for (GpuDevice d : lent) {
        Optional<Claim> c = claimOne(folder.resolve(name(d)), holder);
        if (c.isEmpty()) {
          throw new Refused("GPU " + d.index() + " (" + name(d) + ") is already lent by another worker on this host ("
              + holderOf(folder.resolve(name(d))) + "): one GPU is lent by one worker at a time; lend other GPUs with "
              + "--gpus, or stop that worker first");
        }
        taken.add(c.get());
      }
      return new GpuLocks(taken);
    } catch (IOException e) {
      new GpuLocks(taken).close();
      throw new Refused("cannot claim this worker's GPUs in " + folder + ": " + e.getMessage() + " (set " + ENV
          + " to a folder every user of this host can write)");
    } catch (RuntimeException e) {
      new GpuLocks(taken).close();
      throw e;
    }
  }

  /** Makes the shared folder, writable by every user and sticky (each removes only its own files), as /tmp is. */
  private static void prepare(Path folder) throws IOException {
    if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
      Files.createDirectories(folder);
      try {
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxrwxrwx"));
        TimedCommand.run(List.of("chmod", "+t", folder.toString()), Duration.ofSeconds(5));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (IOException | TimeoutException | SecurityException e) {
        // another user made it meanwhile: theirs stands
      }
    }
  }

  /**
   * Takes the lock of one file, or empty when another process holds it. The file is opened without
   * following links (a link planted in the shared folder is refused), and a lock taken on a file that
   * its holder removed meanwhile is given up and taken again on the new one.
   */
  private static Optional<Claim> claimOne(Path file, String holder) throws IOException {
    for (int attempt = 0; attempt < 10; attempt++) {
      Object before = fileKey(file);
      FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
          StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null; // a worker of this very process holds it
      }
      if (lock == null) {
        channel.close();
        return Optional.empty();
      }
      // the file opened is the one the path names before and after the lock: not one its holder removed
      if (before != null && before.equals(fileKey(file))) {
        channel.truncate(0);
        channel.write(ByteBuffer.wrap(holder.getBytes(StandardCharsets.UTF_8)), 0);
        try {
          Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        } catch (IOException e) {
          // a file another user made: it stays theirs, the lock is what counts
        }
        return Optional.of(new Claim(file, channel, lock));
      }
      lock.release();
      channel.close();
    }
    throw new IOException("the claim file " + file + " keeps being replaced");
  }

  /** The identity (device and inode) of the file the path names now, or null when there is none. */
  private static Object fileKey(Path file) throws IOException {
    try {
      return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
    } catch (java.nio.file.NoSuchFileException e) {
      return null;
    }
  }

  /** What the claim file says of its holder, for a refusal. */
  private static String holderOf(Path file) {
    try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      ByteBuffer b = ByteBuffer.allocate(MAX_HOLDER_BYTES);
      c.read(b, 0);
      String text = new String(b.array(), 0, b.position(), StandardCharsets.UTF_8).strip();
      return text.isEmpty() ? "a worker that is starting" : text.replaceAll("\\p{Cntrl}", "?");
    } catch (IOException e) {
      return "holder unknown";
    }
  }

  /** Removes the claims' files and releases them. */
  @Override
  public void close() {
    for (Claim c : claims) {
      try {
        Files.deleteIfExists(c.file()); // while still held, so that no one takes the lock of a file about to go
        c.lock().release();
        c.channel().close();
      } catch (IOException e) {
        // the process's end releases the lock all the same
      }
    }
    claims.clear();
  }
}
