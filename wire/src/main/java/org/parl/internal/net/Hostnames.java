package org.parl.internal.net;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This host's name, for display. Read from the kernel (else from {@code HOSTNAME} in the environment),
 * never looked up: a name lookup could send traffic off the host, and nodes only ever talk to the
 * addresses given. The kernel comes first because the environment travels: {@code srun} hands the
 * batch node's {@code HOSTNAME} to the tasks of every node.
 */
public final class Hostnames {

  private static final String NAME = find();

  private Hostnames() {}

  public static String local() {
    return NAME;
  }

  private static String find() {
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
    String env = System.getenv("HOSTNAME");
    return env != null && !env.isBlank() ? env.strip() : "localhost";
  }
}
