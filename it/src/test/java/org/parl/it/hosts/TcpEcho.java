package org.parl.it.hosts;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;

/**
 * Plain Java TCP echo, the yardstick for parl's figures across hosts: {@code server HOST} echoes
 * length-prefixed messages on a free port of HOST (and prints it); {@code client HOST:PORT ROUNDS}
 * prints the median round trip of a 16-byte and of an 8 MiB message (a second pass, after a warm-up
 * pass, as parl's figures are taken).
 */
public final class TcpEcho {

  private TcpEcho() {}

  public static void main(String[] args) throws Exception {
    if (args[0].equals("server")) {
      serve(args[1]);
    } else {
      String[] hp = args[1].split(":");
      int rounds = Integer.parseInt(args[2]);
      try (Socket s = new Socket()) {
        s.setTcpNoDelay(true);
        s.connect(new InetSocketAddress(hp[0], Integer.parseInt(hp[1])), 10_000);
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream(), 1 << 16));
        DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream(), 1 << 16));
        long small = 0;
        long big = 0;
        for (int pass = 0; pass < 2; pass++) {
          small = median(time(out, in, 16, rounds * 10));
          big = median(time(out, in, 8 << 20, rounds));
        }
        System.out.printf("TCP small_p50_us=%.1f big_p50_ms=%.2f%n", small / 1e3, big / 1e6);
      }
    }
  }

  private static void serve(String host) throws Exception {
    try (ServerSocket server = new ServerSocket(0, 4, InetAddress.getByName(host))) {
      System.out.println("LISTENING " + server.getLocalPort());
      while (true) {
        Socket s = server.accept();
        Thread t = new Thread(() -> echo(s));
        t.setDaemon(true);
        t.start();
      }
    }
  }

  private static void echo(Socket s) {
    try (s) {
      s.setTcpNoDelay(true);
      DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream(), 1 << 16));
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream(), 1 << 16));
      byte[] buf = new byte[0];
      while (true) {
        int n = in.readInt();
        if (buf.length < n) {
          buf = new byte[n];
        }
        in.readFully(buf, 0, n);
        out.writeInt(n);
        out.write(buf, 0, n);
        out.flush();
      }
    } catch (EOFException e) {
      // the client is done
    } catch (Exception e) {
      System.out.println("echo: " + e);
    }
  }

  private static long[] time(DataOutputStream out, DataInputStream in, int size, int rounds) throws Exception {
    byte[] msg = new byte[size];
    Arrays.fill(msg, (byte) 7);
    byte[] back = new byte[size];
    long[] t = new long[rounds];
    for (int i = 0; i < rounds; i++) {
      long t0 = System.nanoTime();
      out.writeInt(size);
      out.write(msg);
      out.flush();
      in.readInt();
      in.readFully(back);
      t[i] = System.nanoTime() - t0;
    }
    return t;
  }

  /** The median of {@code samples} (which it sorts). */
  public static long median(long[] samples) {
    Arrays.sort(samples);
    return samples[samples.length / 2];
  }
}
