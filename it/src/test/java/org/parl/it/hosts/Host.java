package org.parl.it.hosts;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.parl.bench.netns.Commands;
import org.parl.bench.netns.NetnsBed;
import org.parl.it.ParlProcess;
import org.parl.node.NodeJvm;

/**
 * One simulated host of a {@link NetnsHosts} bed: a network namespace whose only interfaces are
 * its loopback and {@code vn1}, which holds {@link #address} on the bed's private bridge.
 * Processes started here run inside the namespace and are killed (by pid) when the bed closes.
 */
public final class Host {

  /** The name of the interface inside the namespace. */
  public static final String LINK = NetnsBed.LINK;

  public final String label;
  public final String namespace;
  public final String address;
  private final int index;
  private final NetnsBed bed;
  private final NetnsHosts test;

  Host(String label, int index, NetnsBed bed, NetnsHosts test) {
    this.label = label;
    this.index = index;
    this.namespace = bed.namespace(index);
    this.address = bed.address(index);
    this.bed = bed;
    this.test = test;
  }

  /** Runs {@code cmd} inside this host; its output is collected as a {@link ParlProcess}'s. */
  public ParlProcess start(Map<String, String> env, String what, List<String> cmd) {
    return test.track(ParlProcess.startCommand(env, label + "-" + what, bed.inside(index, cmd)));
  }

  /**
   * Runs {@code cmd} inside this host like {@link #start}; with {@code talk} its standard input
   * stays open for {@link ParlProcess#send}.
   */
  public ParlProcess start(Map<String, String> env, String what, List<String> cmd, boolean talk) {
    return test.track(ParlProcess.startCommand(env, label + "-" + what, bed.inside(index, cmd), talk));
  }

  /** Runs {@code parl args...} from the packaged jar inside this host, as {@code bin/parl} would. */
  public ParlProcess parl(Map<String, String> env, String... args) {
    List<String> cmd = new ArrayList<>(List.of(java()));
    cmd.addAll(NodeJvm.HAZELCAST_FLAGS);
    cmd.addAll(List.of("-jar", ParlProcess.jar().toString()));
    cmd.addAll(List.of(args));
    return start(env, args.length > 0 ? args[0] : "parl", cmd);
  }

  /** Runs a main class inside this host with the given class path. */
  public ParlProcess java(Map<String, String> env, List<Path> classpath, Class<?> main, String... args) {
    List<String> cmd = new ArrayList<>(List.of(java(), "-cp",
        String.join(File.pathSeparator, classpath.stream().map(Path::toString).toList()), main.getName()));
    cmd.addAll(List.of(args));
    return start(env, main.getSimpleName(), cmd);
  }

  /**
   * Runs a main class inside this host with the given JVM options ({@code -Dname=value}...) and
   * class path, its standard input open for {@link ParlProcess#send}.
   */
  public ParlProcess talkingJava(Map<String, String> env, List<String> jvmOptions, List<Path> classpath, Class<?> main,
      String... args) {
    List<String> cmd = new ArrayList<>(List.of(java()));
    cmd.addAll(jvmOptions);
    cmd.addAll(List.of("-cp", String.join(File.pathSeparator, classpath.stream().map(Path::toString).toList()), main.getName()));
    cmd.addAll(List.of(args));
    return start(env, main.getSimpleName(), cmd, true);
  }

  /** Runs a short command inside this host and returns its output (a failure throws). */
  public String exec(String... cmd) {
    return Commands.run(bed.inside(index, List.of(cmd)).toArray(String[]::new));
  }

  /** The TCP sockets listening inside this host. */
  public List<TcpSocket> listeners() {
    return TcpSocket.parse(exec("ss", "-ltnpH"));
  }

  /** The established TCP connections inside this host. */
  public List<TcpSocket> connections() {
    return TcpSocket.parse(exec("ss", "-tnpH", "state", "established"));
  }

  /** Pulls this host's cable: its link goes down, so no packet enters or leaves it. */
  public void cut() {
    Commands.run("ip", "-n", namespace, "link", "set", LINK, "down");
  }

  /** Plugs the cable back in. */
  public void restore() {
    Commands.run("ip", "-n", namespace, "link", "set", LINK, "up");
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  @Override
  public String toString() {
    return label + " (" + address + ", namespace " + namespace + ")";
  }
}
