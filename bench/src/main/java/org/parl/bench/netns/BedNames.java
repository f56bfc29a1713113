package org.parl.bench.netns;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The names a bed of network namespaces ({@link NetnsBed}) gives its bridge, veths and namespaces,
 * and the sweep of what a killed run left behind.
 *
 * <p>Every name is {@code parlt-<pid>-<bed><host>}: the pid of the JVM that made the bed (a test's
 * or the benchmark's) in base 36, one base-36 character per bed of that JVM, and one per host
 * ({@code parlt-2hwo0-a} is a bridge, {@code parlt-2hwo0-a1} the first host's namespace and the root
 * end of its veth). They fit the 15 characters of an interface name, never collide with a
 * concurrent run (pids of live processes differ), and tell the sweep whose they are: it deletes
 * only {@code parlt-} names whose owner process is gone, never those of a run still going.
 */
final class BedNames {

  static final String PREFIX = "parlt-";
  private static final AtomicInteger BEDS = new AtomicInteger();

  final String bridge;

  private BedNames(String bridge) {
    this.bridge = bridge;
  }

  /** Names for a new bed of this JVM. */
  static BedNames next() {
    int k = BEDS.getAndIncrement() % 36;
    return new BedNames(PREFIX + Long.toString(ProcessHandle.current().pid(), 36) + "-" + Character.forDigit(k, 36));
  }

  /** Host {@code i} (1..35): its namespace, also the name of its veth's root end. */
  String host(int i) {
    if (i < 1 || i > 35) {
      throw new IllegalArgumentException("a bed holds 1 to 35 hosts, not " + i);
    }
    return bridge + Character.forDigit(i, 36);
  }

  /** True for a name of this bed. */
  boolean owns(String name) {
    return name.startsWith(bridge);
  }

  /** The pid of the JVM that made a {@code parlt-} name, if the name is one of ours. */
  static Optional<Long> owner(String name) {
    if (!name.startsWith(PREFIX)) {
      return Optional.empty();
    }
    String rest = name.substring(PREFIX.length());
    int dash = rest.indexOf('-');
    try {
      return dash > 0 ? Optional.of(Long.parseLong(rest.substring(0, dash), 36)) : Optional.empty();
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** Namespaces whose names start with {@code parlt-}. */
  static List<String> namespaces() {
    List<String> out = new ArrayList<>();
    for (String line : Commands.tryRun("ip", "netns", "list").output().split("\n")) {
      String name = line.strip().split("\\s+")[0];
      if (name.startsWith(PREFIX)) {
        out.add(name);
      }
    }
    return out;
  }

  /** Links of the root namespace whose names start with {@code parlt-}. */
  static List<String> links() {
    List<String> out = new ArrayList<>();
    for (String line : Commands.tryRun("ip", "-o", "link", "show").output().split("\n")) {
      String[] parts = line.split(":\\s+", 3);
      if (parts.length >= 2) {
        String name = parts[1].split("@")[0];
        if (name.startsWith(PREFIX)) {
          out.add(name);
        }
      }
    }
    return out;
  }

  /** Deletes the namespaces and links of runs whose JVM is gone, and the processes inside them. */
  static void sweepLeftovers() {
    for (String ns : namespaces()) {
      if (orphan(ns)) {
        NetnsBed.killInside(ns);
        Commands.tryRun("ip", "netns", "del", ns);
      }
    }
    for (String link : links()) {
      if (orphan(link)) {
        Commands.tryRun("ip", "link", "del", link);
      }
    }
  }

  private static boolean orphan(String name) {
    return owner(name).map(pid -> ProcessHandle.of(pid).isEmpty()).orElse(false);
  }
}
