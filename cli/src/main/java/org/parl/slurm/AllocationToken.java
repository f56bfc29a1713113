package org.parl.slurm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;
import java.util.Set;
import org.parl.internal.security.ClusterToken;
import org.parl.node.NodeFailure;
import org.parl.node.ParlHome;

/**
 * A fresh cluster token for one Slurm allocation: 256 random bits in
 * {@code $PARL_HOME/slurm/job-ID-RANDOM/token}, the folder private (0700) and the file 0600 from its
 * first byte. Every node of the allocation reads it there, so {@code PARL_HOME} must be on a file
 * system the nodes share (home directories on a Slurm cluster usually are). The token is handed to the
 * parl nodes and the user's command as {@code PARL_TOKEN_FILE}, never on a command line.
 * {@link #close()} deletes it.
 */
public final class AllocationToken implements AutoCloseable {

  private final Path dir;
  private final Path file;
  private final ClusterToken token;

  private AllocationToken(Path dir, Path file, ClusterToken token) {
    this.dir = dir;
    this.file = file;
    this.token = token;
  }

  /**
   * Creates the token of allocation {@code jobId}.
   *
   * @throws NodeFailure when the folder or the file cannot be made
   */
  public static AllocationToken create(String jobId) {
    return create(ParlHome.root(), jobId);
  }

  static AllocationToken create(Path parlHome, String jobId) {
    String value = HexFormat.of().formatHex(ClusterToken.nonce(32));
    Path parent = parlHome.resolve("slurm");
    Path dir = parent.resolve("job-" + jobId.replaceAll("[^0-9A-Za-z_.-]", "_") + "-"
        + HexFormat.of().formatHex(ClusterToken.nonce(4)));
    Path file = dir.resolve("token");
    try {
      Files.createDirectories(parent, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      try (SeekableByteChannel out = Files.newByteChannel(file, Set.of(StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
        out.write(ByteBuffer.wrap((value + "\n").getBytes(StandardCharsets.UTF_8)));
      }
    } catch (IOException | UnsupportedOperationException e) {
      throw new NodeFailure("cannot create the allocation's cluster token in " + dir + ": " + e.getMessage());
    }
    return new AllocationToken(dir, file, ClusterToken.find(file));
  }

  /** Where the token is: what {@code PARL_TOKEN_FILE} names for the nodes and the command. */
  public Path file() {
    return file;
  }

  public ClusterToken token() {
    return token;
  }

  /** Deletes the token and its folder; safe to call twice. */
  @Override
  public void close() {
    try {
      Files.deleteIfExists(file);
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      throw new NodeFailure("cannot delete the allocation's cluster token " + file + ": " + e.getMessage());
    }
  }
}
