package org.parl.it.hosts;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.parl.it.ParlProcess;

/**
 * A test bed of several hosts on one machine: N network namespaces joined by a private bridge, host
 * {@code i} at {@code 10.77.0.(i+1)/24} (the bridge itself has no address, so nothing in the root
 * namespace, and no other network, can be reached from inside).
 *
 * <p>{@link #close()} kills every process inside the namespaces and deletes the namespaces, veths
 * and the bridge; a shutdown hook does the same if the JVM is interrupted, and {@link #create}
 * first sweeps what a killed run left behind (see {@link BedNames}). Tests that need a bed are
 * skipped, with the reason, only where the kernel refuses namespaces (not root, no {@code ip}).
 */
public final class NetnsHosts implements AutoCloseable {

  /** The subnet every bed uses; each bed's bridge is private, so concurrent beds do not meet. */
  public static final String SUBNET = "10.77.0.";

  private final BedNames names;
  private final List<Host> hosts = new ArrayList<>();
  private final List<ParlProcess> processes = new ArrayList<>();
  private final Thread hook;
  private boolean closed;

  private NetnsHosts(BedNames names) {
    this.names = names;
    this.hook = new Thread(this::close, "netns-teardown-" + names.bridge);
  }

  /**
   * Creates {@code count} hosts labelled A, B, C... at 10.77.0.2, .3, .4...; aborts the calling
   * test (JUnit assumption) when this machine cannot make network namespaces.
   */
  public static NetnsHosts create(int count) {
    BedNames.sweepLeftovers();
    NetnsHosts bed = new NetnsHosts(BedNames.next());
    Runtime.getRuntime().addShutdownHook(bed.hook);
    synchronized (bed) { // an interrupt during the set-up tears down once it is complete
      try {
        String first = bed.names.host(1);
        Commands.Result probe = Commands.tryRun("ip", "netns", "add", first);
        if (!probe.ok()) {
          bed.close();
          Assumptions.abort("this machine cannot make network namespaces (needs root and iproute2): "
              + "'ip netns add' said: " + probe.output());
        }
        Commands.run("ip", "link", "add", bed.names.bridge, "type", "bridge");
        quiet(bed.names.bridge);
        Commands.run("ip", "link", "set", bed.names.bridge, "up");
        for (int i = 1; i <= count; i++) {
          bed.hosts.add(bed.plug(i));
        }
        return bed;
      } catch (RuntimeException | Error e) {
        bed.close();
        throw e;
      }
    }
  }

  private Host plug(int i) {
    String ns = names.host(i);
    if (i > 1) {
      Commands.run("ip", "netns", "add", ns);
    }
    String address = SUBNET + (i + 1);
    Commands.run("ip", "link", "add", ns, "type", "veth", "peer", "name", Host.LINK, "netns", ns);
    quiet(ns);
    Commands.run("ip", "link", "set", ns, "master", names.bridge, "up");
    Commands.run("ip", "-n", ns, "link", "set", Host.LINK, "addrgenmode", "none");
    Commands.run("ip", "-n", ns, "addr", "add", address + "/24", "dev", Host.LINK);
    Commands.run("ip", "-n", ns, "link", "set", Host.LINK, "up");
    Commands.run("ip", "-n", ns, "link", "set", "lo", "up");
    return new Host(String.valueOf((char) ('A' + i - 1)), ns, address, this);
  }

  /** No IPv6 link-local address, so a link sends nothing but what the tests send. */
  private static void quiet(String link) {
    Commands.run("ip", "link", "set", link, "addrgenmode", "none");
  }

  /** Host {@code i}, from 0 (A, 10.77.0.2). */
  public Host host(int i) {
    return hosts.get(i);
  }

  public List<Host> hosts() {
    return List.copyOf(hosts);
  }

  synchronized ParlProcess track(ParlProcess p) {
    if (closed) {
      p.close();
      throw new IllegalStateException("the test bed is closed");
    }
    processes.add(p);
    return p;
  }

  /** Names of this bed still present in the system (namespaces and root links); empty once closed. */
  public List<String> remains() {
    List<String> out = new ArrayList<>();
    BedNames.namespaces().stream().filter(names::owns).forEach(n -> out.add("namespace " + n));
    BedNames.links().stream().filter(names::owns).forEach(n -> out.add("link " + n));
    return out;
  }

  /** Kills what runs in the bed and deletes it; safe to call twice, and from the shutdown hook. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    processes.forEach(ParlProcess::close);
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
      throw new IllegalStateException("the test bed could not remove " + left);
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
    return "test bed " + names.bridge + " " + hosts;
  }
}
