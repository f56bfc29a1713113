package org.parl.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.Callable;
import org.parl.internal.security.ClusterToken;
import org.parl.node.NodeFailure;
import org.parl.tls.ClusterAuthority;
import org.parl.tls.Fingerprints;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code parl cert}: writes the cluster's CA certificate (derived from the token) as PEM, for
 * {@code curl --cacert}, Prometheus' {@code tls_config.ca_file} or a browser's trust store. Prints
 * the file's path alone on standard output, so that {@code curl --cacert "$(bin/parl cert)"} works,
 * and its SHA-256 fingerprint on standard error.
 */
@Command(name = "cert", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = "Write the cluster's CA certificate (PEM), which verifies every node's HTTPS and gateway certificate; "
        + "print its path, and its SHA-256 fingerprint on standard error.")
public final class CertCommand implements Callable<Integer> {

  @Option(names = "--out", paramLabel = "FILE", description = "Where to write it (default: $PARL_HOME/ca.pem, ~/.parl/ca.pem).")
  Path out;

  @Mixin
  TokenOption tokenOption;

  @Override
  public Integer call() {
    ClusterAuthority authority = ClusterAuthority.derive(tokenOption.find());
    Path file = out != null ? out : ClusterToken.homeFile().resolveSibling("ca.pem");
    write(file, authority.pem());
    System.out.println(file);
    System.err.println("cluster CA SHA-256 " + Fingerprints.show(authority.fingerprint()));
    return 0;
  }

  /** Writes {@code pem} to {@code file} whole (a reader never sees half of it), readable by all: a certificate is public. */
  private static void write(Path file, String pem) {
    Path absolute = file.toAbsolutePath();
    Path dir = absolute.getParent();
    try {
      if (!Files.isDirectory(dir)) {
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      }
      Path temp = Files.createTempFile(dir, ".ca-", ".pem");
      try {
        Files.writeString(temp, pem, StandardCharsets.US_ASCII);
        Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rw-r--r--"));
        Files.move(temp, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(temp);
      }
    } catch (IOException e) {
      throw new NodeFailure("cannot write the cluster's CA certificate to " + file + " ("
          + e.getClass().getSimpleName() + ": " + e.getMessage() + ")");
    }
  }
}
