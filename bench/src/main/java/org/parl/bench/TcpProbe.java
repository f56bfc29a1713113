package org.parl.bench;

import java.io.IOException;

/**
 * The plain-Java baseline of a program's start: a fresh JVM that connects to the benchmark's
 * {@link EchoServer}, makes one 16-byte round trip, prints {@code parl bench tcp probe done} and
 * exits. Argument: the echo server's port.
 */
public final class TcpProbe {

  private TcpProbe() {}

  public static void main(String[] args) throws IOException {
    try (TcpEcho echo = new TcpEcho(Integer.parseInt(args[0]))) {
      echo.roundTrip(new byte[16]);
    }
    System.out.println("parl bench tcp probe done");
    System.out.flush();
  }
}
