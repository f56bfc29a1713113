package org.parl.node;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Checks that a port is free before a node starts, so that "in use" is one clear sentence. */
public final class Ports {

  private Ports() {}

  /**
   * Checks that a port the user chose can be bound on {@code host}, so that a taken one fails
   * before any node starts (servers then bind it themselves).
   *
   * @throws NodeFailure naming the option when the port is taken
   */
  public static void claim(String host, int port, String option) {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(InetAddress.getByName(host), port));
    } catch (IOException e) {
      throw new NodeFailure("port " + port + " on " + host + " is already in use: stop what uses it, or choose another with " + option);
    }
  }
}
