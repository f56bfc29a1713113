package org.parl.it;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The worker's word, in a node's output, that a job process is clean and ready for its next actor. */
final class ReuseLines {

  private static final Duration WAIT = Duration.ofSeconds(30);

  private ReuseLines() {}

  /** How many times process {@code pid} was found clean and ready again so far. */
  static int cleanCount(ParlProcess node, long pid) {
    Matcher m = Pattern.compile("job process " + pid + " \\(slot \\S+\\) is clean and ready for the next actor")
        .matcher(node.output());
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  /** Waits until process {@code pid} was found clean {@code n} times in all. */
  static void awaitClean(ParlProcess node, long pid, int n) throws Exception {
    Await.until("job process " + pid + " clean and ready again (" + n + " times in all)", WAIT, () -> cleanCount(node, pid) >= n);
  }
}
