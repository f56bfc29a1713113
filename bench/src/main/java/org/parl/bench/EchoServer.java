package org.parl.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * The plain-Java baseline's server, run as its own JVM: a {@link ServerSocket} on loopback (or on
 * the address given as its argument) that echoes length-prefixed messages
 * ({@code int32 length | bytes}) with TCP_NODELAY, one thread per connection. It prints
 * {@code parl bench echo port N} and exits when its parent does.
 */
public final class EchoServer {

  /** What it prints, followed by its port, once it listens. */
  public static final String PORT_LINE = "parl bench echo port ";

  private EchoServer() {}

  public static void main(String[] args) throws IOException {
    ProcessHandle.current().parent().ifPresent(p -> p.onExit().thenRun(() -> System.exit(0)));
    InetAddress at = args.length > 0 ? InetAddress.getByName(args[0]) : InetAddress.getLoopbackAddress();
    try (ServerSocket server = new ServerSocket(0, 4, at)) {
      System.out.println(PORT_LINE + server.getLocalPort());
      System.out.flush();
      while (true) {
        Socket s = server.accept();
        Thread t = new Thread(() -> serve(s), "echo");
        t.setDaemon(true);
        t.start();
      }
    }
  }

  private static void serve(Socket s) {
    try (s) {
      s.setTcpNoDelay(true);
      DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream(), 64 * 1024));
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream(), 64 * 1024));
      byte[] buf = new byte[64];
      while (true) {
        int n = in.readInt();
        if (n > buf.length) {
          buf = new byte[n];
        }
        in.readFully(buf, 0, n);
        out.writeInt(n);
        out.write(buf, 0, n);
        out.flush();
      }
    } catch (EOFException e) {
      // the client closed
    } catch (IOException e) {
      System.err.println("echo: " + e.getMessage());
    }
  }
}
