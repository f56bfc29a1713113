package org.parl.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.parl.node.NodeFailure;
import picocli.CommandLine.Command;

/**
 * {@code parl classpath}: the class path of a client program (the {@code org.parl:parl} artifact
 * and what it needs: vertx-core, Jackson, slf4j-api; no node runtime), for
 * {@code javac -cp "$(bin/parl classpath)" Main.java && java -cp "$(bin/parl classpath):." Main}.
 */
@Command(name = "classpath", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = "Print the class path of a client program (javac -cp \"$(bin/parl classpath)\" ...).")
public final class ClasspathCommand implements Callable<Integer> {

  @Override
  public Integer call() {
    Path client = Path.of(System.getProperty("parl.root", "."), "client", "target").toAbsolutePath().normalize();
    if (!Files.isRegularFile(client.resolve("parl.jar")) || !Files.isDirectory(client.resolve("client-lib"))) {
      throw new NodeFailure("the client jar is missing under " + client + ": run bin/parl from the parl checkout "
          + "(it builds what is missing), or 'mvn -B -DskipTests package'");
    }
    System.out.println(client.resolve("parl.jar") + java.io.File.pathSeparator + client.resolve("client-lib") + "/*");
    return 0;
  }
}
