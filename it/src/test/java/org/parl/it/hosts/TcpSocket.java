package org.parl.it.hosts;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One TCP socket as {@code ss -tnpH} lists it inside a namespace: local and peer address (IPv4
 * mapped addresses unwrapped, {@code *} for a wildcard), and the process that owns it.
 */
public record TcpSocket(String localHost, int localPort, String peerHost, int peerPort, long pid, String process) {

  private static final Pattern ENDPOINT = Pattern.compile("^(.*):(\\d+|\\*)$");
  private static final Pattern USER = Pattern.compile("\\(\"([^\"]*)\",pid=(\\d+)");

  /** True for a socket bound to every interface ({@code 0.0.0.0}, {@code ::} or {@code *}). */
  public boolean wildcard() {
    return localHost.equals("*") || localHost.equals("0.0.0.0") || localHost.equals("::");
  }

  /** Parses the lines of {@code ss -tnpH} (with or without the state column). */
  static List<TcpSocket> parse(String ssOutput) {
    List<TcpSocket> out = new ArrayList<>();
    for (String line : ssOutput.split("\n")) {
      List<String[]> ends = new ArrayList<>();
      for (String field : line.strip().split("\\s+")) {
        Matcher m = ENDPOINT.matcher(field);
        if (!field.startsWith("users:") && m.matches()) {
          ends.add(new String[] {host(m.group(1)), m.group(2)});
        }
      }
      if (ends.size() < 2) {
        continue;
      }
      Matcher u = USER.matcher(line);
      boolean owned = u.find();
      out.add(new TcpSocket(ends.get(0)[0], port(ends.get(0)[1]), ends.get(1)[0], port(ends.get(1)[1]),
          owned ? Long.parseLong(u.group(2)) : -1, owned ? u.group(1) : "?"));
    }
    return out;
  }

  private static String host(String h) {
    String s = h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
    s = s.replaceFirst("%.*$", "");
    return s.startsWith("::ffff:") ? s.substring("::ffff:".length()) : s;
  }

  private static int port(String p) {
    return p.equals("*") ? 0 : Integer.parseInt(p);
  }

  @Override
  public String toString() {
    return localHost + ":" + localPort + (peerPort != 0 ? " -> " + peerHost + ":" + peerPort : "") + " (" + process + " pid " + pid + ")";
  }
}
