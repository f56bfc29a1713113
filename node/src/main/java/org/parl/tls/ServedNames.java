package org.parl.tls;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The names and addresses a node serves under, which its certificate lists as SubjectAltNames so
 * that clients that check host names (curl, browsers, Prometheus) accept it: the address it binds
 * ({@code --host}) and what that resolves to, this host's name, and {@code localhost} with the
 * loopback addresses when it binds a loopback address.
 *
 * @param dns host names
 * @param ips IP addresses, as literals
 */
public record ServedNames(List<String> dns, List<String> ips) {

  public ServedNames {
    dns = List.copyOf(dns);
    ips = List.copyOf(ips);
  }

  /** The names a node bound to {@code host} (an IP literal or a name of this host) serves under. */
  public static ServedNames of(String host) {
    Set<String> dns = new LinkedHashSet<>();
    Set<String> ips = new LinkedHashSet<>();
    String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    InetAddress bound = null;
    try {
      bound = InetAddress.getByName(bare);
      ips.add(bound.getHostAddress());
      if (!isLiteral(bare)) {
        dns.add(bare);
      }
    } catch (UnknownHostException e) {
      dns.add(bare); // named as given; the node fails to bind it later, with its own message
    }
    if (bound != null && bound.isLoopbackAddress()) {
      dns.add("localhost");
      ips.add("127.0.0.1");
      ips.add("0:0:0:0:0:0:0:1");
    }
    try {
      InetAddress self = InetAddress.getLocalHost();
      dns.add(self.getHostName());
      String canonical = self.getCanonicalHostName();
      if (!isLiteral(canonical)) {
        dns.add(canonical);
      }
    } catch (UnknownHostException e) {
      // a host without a resolvable name is served under its addresses only
    }
    return new ServedNames(List.copyOf(dns), List.copyOf(ips));
  }

  private static boolean isLiteral(String name) {
    return name.contains(":") || name.matches("[0-9.]+");
  }
}
