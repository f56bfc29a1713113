package org.parl.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The class path of a user program the tests run as a process of its own: the client jar and its libraries, plus the test actors. */
public final class UserClasspath {

  private UserClasspath() {}

  public static List<Path> of() throws IOException {
    Path root = Path.of(System.getProperty("parl.root", "..")).toAbsolutePath().normalize();
    List<Path> cp = new ArrayList<>(List.of(root.resolve("client/target/parl.jar")));
    try (Stream<Path> libs = Files.list(root.resolve("client/target/client-lib"))) {
      libs.sorted().forEach(cp::add);
    }
    cp.add(root.resolve("it/target/test-classes"));
    return cp;
  }
}
