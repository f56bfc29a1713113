package org.parl.node;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * JVM options of the processes that run Hazelcast (masters, workers, monitors): they refuse attach
 * (no process of the user, a job included, can load an agent into a node), and Hazelcast wants
 * these on Java 17+ and works, with a warning, without them. The one list is
 * {@code config/hazelcast-jvm.args} (a java {@code @argfile}): {@code bin/parl} and the cluster
 * tests pass that file, and this class reads the copy inside the jar. Job processes and clients do
 * not get them (opening the modules slows every start).
 */
public final class NodeJvm {

  public static final List<String> HAZELCAST_FLAGS = read();

  private NodeJvm() {}

  private static List<String> read() {
    try (InputStream in = NodeJvm.class.getClassLoader().getResourceAsStream("hazelcast-jvm.args")) {
      if (in == null) {
        throw new IllegalStateException("hazelcast-jvm.args is missing from the parl-node jar");
      }
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return Arrays.stream(text.split("\\s+")).filter(s -> !s.isEmpty()).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
