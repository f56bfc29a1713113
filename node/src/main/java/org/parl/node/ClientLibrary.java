package org.parl.node;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The client library of a parl checkout, what a user's program needs on its class path (the
 * {@code org.parl:parl} artifact and its dependencies, no node runtime): {@code client/target/parl.jar}
 * and {@code client/target/client-lib/*}. {@code bin/parl classpath} prints it; the benchmark starts
 * its user-like programs with it.
 */
public final class ClientLibrary {

  private ClientLibrary() {}

  /**
   * The class path under the checkout at {@code root}.
   *
   * @throws NodeFailure when the client library is not built there
   */
  public static String classPath(Path root) {
    Path client = root.resolve("client").resolve("target").toAbsolutePath().normalize();
    if (!Files.isRegularFile(client.resolve("parl.jar")) || !Files.isDirectory(client.resolve("client-lib"))) {
      throw new NodeFailure("the client jar is missing under " + client + ": run bin/parl from the parl checkout "
          + "(it builds what is missing), or 'mvn -B -DskipTests package'");
    }
    return client.resolve("parl.jar") + File.pathSeparator + client.resolve("client-lib") + "/*";
  }
}
