package org.parl.cli;

import java.util.List;

/**
 * JVM options of the processes that run Hazelcast (masters, workers, monitors): Hazelcast wants
 * these on Java 17+ and works, with a warning, without them. {@code bin/parl} passes the same
 * list; job processes and clients do not get them (they cost ~25 ms of start-up).
 */
public final class NodeJvm {

  public static final List<String> HAZELCAST_FLAGS = List.of(
      "--add-modules", "java.se",
      "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED",
      "--add-opens", "java.base/java.lang=ALL-UNNAMED",
      "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens", "java.management/sun.management=ALL-UNNAMED",
      "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED");

  private NodeJvm() {}
}
