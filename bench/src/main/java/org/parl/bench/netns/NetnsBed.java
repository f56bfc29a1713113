package org.parl.bench.netns;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Several hosts on one machine: N network namespaces joined by a private bridge, host {@code i}
 * at {@code 10.77.0.(i+2)/24} on the interface {@value #LINK} (the bridge itself has no address, so
 * nothing in the root namespace, and no other network, can be reached from inside). Used by the
 * benchmark's cross-host rows and by the multi-host tests.
 *
 * <p>{@link #close()} kills every process inside the namespaces (by pid) and deletes the
 * namespaces, veths and the bridge; a shutdown hook does the same if the JVM is interrupted, and
 * {@link #create} first sweeps what a killed run left behind (see {@link BedNames}).
 */
public final class NetnsBed implements AutoCloseable {

  /** The subnet every bed uses; each bed's bridge is private, so concurrent beds do not meet. */
  public static final String SUBNET = "10.77.0.";
  /** The name of each host's interface inside its namespace. */
  public static final String LINK = "vn1";

  /** This machine cannot make network namespaces (not root, or no {@code ip}): why, in its message. */
  public static final class Unavailable extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    Unavailable(String message) {
      super(message);
    }
  }

  private final BedNames names;
  private final List<String> namespaces = new ArrayList<>();
  private final Thread hook;
  private boolean closed;

  private NetnsBed(BedNames names) {
    this.names = names;
    this.hook = new Thread(this::close, "netns-teardown-" + names.bridge);
  }

  /**
   * Creates {@code count} hosts at 10.77.0.2, .3, .4...
   *
   * @throws Unavailable when this machine cannot make network namespaces
   * @throws IllegalStateException when a later step of the set-up fails (what was made is removed)
   */
  public static NetnsBed create(int count) {
    BedNames.sweepLeftovers();
    NetnsBed bed = new NetnsBed(BedNames.next());
    Runtime.getRuntime().addShutdownHook(bed.hook);
    synchronized (bed) { // an interrupt during the set-up tears down once it is complete
      try {
        String first = bed.names.host(1);
        Commands.Result probe = Commands.tryRun("ip", "netns", "add", first);
        if (!probe.ok()) {
          bed.close();
          throw new Unavailable("this machine cannot make network namespaces (needs root and iproute2): "
              + "'ip netns add' said: " + probe.output());
        }
        Commands.run("ip", "link", "add", bed.names.bridge, "type", "bridge");
        quiet(bed.names.bridge);
        Commands.run("ip", "link", "set", bed.names.bridge, "up");
        for (int i = 1; i <= count; i++) {
          bed.plug(i);
        }
        return bed;
      } catch (RuntimeException | Error e) {
        bed.close();
        throw e;
      }
    }
  }

  private void plug(int i) {
    String ns = names.host(i);
    if (i > 1) {
      Commands.run("ip", "netns", "add", ns);
    }
    Commands.run("ip", "link", "add", ns, "type", "veth", "peer", "name", LINK, "netns", ns);
    quiet(ns);
    Commands.run("ip", "link", "set", ns, "master", names.bridge, "up");
    Commands.run("ip", "-n", ns, "link", "set", LINK, "addrgenmode", "none");
    Commands.run("ip", "-n", ns, "addr", "add", SUBNET + (i + 1) + "/24", "dev", LINK);
    Commands.run("ip", "-n", ns, "link", "set", LINK, "up");
    Commands.run("ip", "-n", ns, "link", "set", "lo", "up");
    namespaces.add(ns);
  }

  /** No IPv6 link-local address, so a link sends nothing but what its users send. */
  private static void quiet(String link) {
    Commands.run("ip", "link", "set", link, "addrgenmode", "none");
  }

  /** How many hosts the bed has. */
  public int size() {
    return namespaces.size();
  }

  /** Host {@code i}'s namespace, from 0. */
  public String namespace(int i) {
    return namespaces.get(i);
  }

  /** Host {@code i}'s address, from 0 (10.77.0.2). */
  public String address(int i) {
    return SUBNET + (i + 2);
  }

  /** {@code cmd} as run inside host {@code i}: {@code ip netns exec} execs it, so its pid is the command's own. */
  public List<String> inside(int i, List<String> cmd) {
    List<String> inside = new ArrayList<>(List.of("ip", "netns", "exec", namespace(i)));
    inside.addAll(cmd);
    return inside;
  }

  /** Names of this bed still present in the system (namespaces and root links); empty once closed. */
  public List<String> remains() {
    List<String> out = new ArrayList<>();
    BedNames.namespaces().stream().filter(names::owns).forEach(n -> out.add("namespace " + n));
    BedNames.links().stream().filter(names::owns).forEach(n -> out.add("link " + n));
    return out;
  }

  /**
   * Kills what runs in the bed and deletes it; safe to call twice, and from the shutdown hook.
   *
   * @throws IllegalStateException when something of the bed could not be removed
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (String ns : BedNames.namespaces()) {
      if (names.owns(ns)) {
        killInside(ns);
        Commands.tryRun("ip", "link", "del", ns);
        Commands.tryRun("ip", "netns", "del", ns);
      }
    }
    for (String link : BedNames.links()) {
      if (names.owns(link)) {
        Commands.tryRun("ip", "link", "del", link);
      }
    }
    if (Thread.currentThread() != hook) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // the JVM is shutting down: the hook runs (or ran) this method anyway
      }
    }
    List<String> left = remains();
    if (!left.isEmpty()) {
      throw new IllegalStateException("the bed of network namespaces could not remove " + left);
    }
  }

  /** SIGKILLs every process inside namespace {@code ns} (by pid) and waits for them to end. */
  static void killInside(String ns) {
    for (String pid : Commands.tryRun("ip", "netns", "pids", ns).output().split("\\s+")) {
      if (pid.matches("\\d+")) {
        ProcessHandle.of(Long.parseLong(pid)).ifPresent(p -> {
          p.destroyForcibly();
          try {
            p.onExit().get(10, TimeUnit.SECONDS);
          } catch (Exception e) {
            // reported by remains() if it kept the namespace alive
          }
        });
      }
    }
  }

  @Override
  public String toString() {
    return "bed " + names.bridge + " " + namespaces;
  }
}
