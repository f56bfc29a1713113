package org.parl.job;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The few {@code --name value} arguments a worker passes to a job process. */
final class JobArgs {

  private static final List<String> REQUIRED = List.of("worker", "slot", "host", "blobs");

  private JobArgs() {}

  static Map<String, String> parse(String[] args) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument " + args[i]);
      }
      m.put(args[i].substring(2), args[i + 1]);
    }
    for (String r : REQUIRED) {
      if (!m.containsKey(r)) {
        throw new IllegalArgumentException("missing --" + r);
      }
    }
    return m;
  }
}
