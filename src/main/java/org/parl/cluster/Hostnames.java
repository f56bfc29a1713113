package org.parl.cluster;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** This host's name, for display. */
public final class Hostnames {

  private Hostnames() {}

  public static String local() {
    String env = System.getenv("HOSTNAME");
    if (env != null && !env.isBlank()) {
      return env;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }
}
