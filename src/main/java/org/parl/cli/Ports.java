package org.parl.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Checks that a port is free before a node starts, so that "in use" is one clear sentence. */
final class Ports {

  private Ports() {}

  /**
   * Returns {@code port} if it can be bound on {@code host}, or a free port when {@code port} is 0.
   *
   * @throws CliFailure naming the option when the port is taken
   */
  static int claim(String host, int port, String option) {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(InetAddress.getByName(host), port));
      return s.getLocalPort();
    } catch (IOException e) {
      throw new CliFailure("port " + port + " on " + host + " is already in use: stop what uses it, or choose another with " + option);
    }
  }
}
