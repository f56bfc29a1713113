package org.parl.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.parl.node.ClientLibrary;
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
    System.out.println(ClientLibrary.classPath(Path.of(System.getProperty("parl.root", "."))));
    return 0;
  }
}
