package org.parl.cli;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.parl.internal.net.HostPort;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code --host}: the address other nodes reach this one at. */
public final class HostOption {

  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(names = "--host", defaultValue = "127.0.0.1", paramLabel = "IP",
      description = "Address other nodes reach this one at; it binds only there (default: ${DEFAULT-VALUE}).")
  String host;

  /** Whether {@code --host} was given on the command line (rather than its default). */
  public boolean given() {
    return spec.commandLine().getParseResult().hasMatchedOption("--host");
  }

  /** The validated address: a concrete address of one of this host's interfaces. */
  public String get() {
    if (host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
      throw new ParameterException(spec.commandLine(),
          "--host must be an address other nodes can reach, such as 127.0.0.1 or this host's IP, not " + host);
    }
    InetAddress address;
    try {
      address = InetAddress.getByName(host);
    } catch (UnknownHostException e) {
      throw new ParameterException(spec.commandLine(), "--host " + host + " is not an address of this host");
    }
    if (!isLocal(address)) {
      throw new ParameterException(spec.commandLine(), "--host " + host + " is not an address of this host"
          + " (its addresses: " + String.join(", ", localAddresses()) + ")");
    }
    return host;
  }

  /**
   * The validated address of a node that joins the master at {@code master}: a loopback address
   * only if the master runs on this host too, since the master (and clients) must reach this node
   * (and its jobs) at this address.
   */
  public String reachableFrom(HostPort master) {
    String bind = get();
    InetAddress masterAddress;
    try {
      masterAddress = InetAddress.getByName(master.host());
    } catch (UnknownHostException e) {
      return bind; // reported as an unreachable master by the hello that follows
    }
    if (isLoopback(bind) && !isLocal(masterAddress)) {
      throw new ParameterException(spec.commandLine(), "--host is " + bind + ", which the master at " + master
          + ", on another host, cannot reach: pass this host's address on the master's network"
          + routeTo(masterAddress).map(a -> ", such as --host " + a).orElse(""));
    }
    return bind;
  }

  private static boolean isLoopback(String address) {
    try {
      return InetAddress.getByName(address).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static boolean isLocal(InetAddress address) {
    try {
      return address.isLoopbackAddress() || NetworkInterface.getByInetAddress(address) != null;
    } catch (SocketException e) {
      return true; // cannot tell: let the bind decide
    }
  }

  /** This host's address on the route to {@code target} (a UDP connect sends no packet). */
  private static Optional<String> routeTo(InetAddress target) {
    try (DatagramSocket probe = new DatagramSocket()) {
      probe.connect(target, 9);
      InetAddress local = probe.getLocalAddress();
      return local.isAnyLocalAddress() || local.isLoopbackAddress()
          ? Optional.empty() : Optional.of(local.getHostAddress());
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static List<String> localAddresses() {
    List<String> out = new ArrayList<>();
    try {
      for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        for (InetAddress a : Collections.list(nic.getInetAddresses())) {
          if (a instanceof Inet4Address) {
            out.add(a.getHostAddress());
          }
        }
      }
    } catch (SocketException e) {
      // listed as none
    }
    return out.isEmpty() ? List.of("none found") : out;
  }
}
