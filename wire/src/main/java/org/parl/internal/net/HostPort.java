package org.parl.internal.net;

/** A {@code HOST:PORT} given on the command line. */
public record HostPort(String host, int port) {

  /** @throws IllegalArgumentException with a sentence saying what is wrong */
  public static HostPort parse(String s) {
    int colon = s == null ? -1 : s.lastIndexOf(':');
    if (colon <= 0 || colon == s.length() - 1) {
      throw new IllegalArgumentException("address must look like HOST:PORT (for example 127.0.0.1:8010), not '" + s + "'");
    }
    int port;
    try {
      port = Integer.parseInt(s.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("the port in '" + s + "' is not a number");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("the port in '" + s + "' must be between 1 and 65535");
    }
    return new HostPort(s.substring(0, colon), port);
  }

  @Override
  public String toString() {
    return host + ":" + port;
  }
}
