package org.parl.net;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This host's name, for display. Read from the environment or the kernel, never looked up: a
 * name lookup could send traffic off the host, and nodes only ever talk to the addresses given.
 */
public final class Hostnames {

  private static final String NAME = find();

  private Hostnames() {}

  public static String local() {
    return NAME;
  }

  private static String find() {
    String env = System.getenv("HOSTNAME");
    if (env != null && !env.isBlank()) {
      return env.strip();
    }
    for (String file : new String[] {"/proc/sys/kernel/hostname", "/etc/hostname"}) {
      try {
        String name = Files.readString(Path.of(file)).strip();
        if (!name.isEmpty()) {
          return name;
        }
      } catch (IOException e) {
        // not Linux, or no such file: try the next
      }
    }
    return "localhost";
  }
}
