package org.parl.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * The plain-Java baseline's client: one blocking socket with TCP_NODELAY to an {@link EchoServer}
 * in another JVM (on loopback, or on another host); a round trip sends a message and reads the
 * whole echo back.
 */
final class TcpEcho implements AutoCloseable {

  private final InetAddress host;
  private final int port;
  private final Socket socket;
  private final DataInputStream in;
  private final DataOutputStream out;
  private byte[] back = new byte[64];
  private final long serverPid;

  TcpEcho(int port) throws IOException {
    this(InetAddress.getLoopbackAddress(), port, -1);
  }

  /** @param serverPid the echo server's process id, or -1 when unknown (on another host) */
  TcpEcho(InetAddress host, int port, long serverPid) throws IOException {
    this.host = host;
    this.port = port;
    this.serverPid = serverPid;
    socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.connect(new InetSocketAddress(host, port), 5_000);
    in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 64 * 1024));
    out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 64 * 1024));
  }

  /** The echo server's port. */
  int port() {
    return port;
  }

  /** The echo server's process id, or -1 when unknown. */
  long serverPid() {
    return serverPid;
  }

  /** Another connection to the same echo server. */
  TcpEcho another() throws IOException {
    return new TcpEcho(host, port, serverPid);
  }

  /** Sends {@code message} and waits for its echo. */
  void roundTrip(byte[] message) throws IOException {
    out.writeInt(message.length);
    out.write(message);
    out.flush();
    int n = in.readInt();
    if (n != message.length) {
      throw new IOException("the echo server answered " + n + " bytes for " + message.length);
    }
    if (n > back.length) {
      back = new byte[n];
    }
    in.readFully(back, 0, n);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
