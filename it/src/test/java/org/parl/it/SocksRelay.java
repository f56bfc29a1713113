package org.parl.it;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.parl.internal.wire.FrameBuffer;
import org.parl.internal.wire.Frames;
import org.parl.internal.wire.RemoteMethod;
import org.parl.internal.wire.ValueCodec;
import org.parl.it.actors.Counter;

/**
 * A man in the middle for the data path: a SOCKS5 relay that a client's JDK sockets are sent
 * through (in this JVM by {@link #selector()}; in another, by {@code -DsocksProxyHost}/{@code
 * -DsocksProxyPort}), forwarding the bytes of each connection both ways unchanged (so the handshake
 * goes through) and able, once the test says so, to inject bytes of its own into what the client
 * sends, to replay what the client sent, or to alter the next bytes the client sends: what a relay
 * on a lab network (ARP spoofing) could do, without the job's credential. Used in the test JVM on
 * 127.0.0.1 ({@link DataRelayIT}) and as a program on a host of its own ({@link RelayProgram}).
 */
final class SocksRelay implements AutoCloseable {

  private final ServerSocket server;
  private final List<Link> links = new CopyOnWriteArrayList<>();
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final Consumer<Link> onLink;
  private final Thread acceptor;

  /** A relay on 127.0.0.1. */
  SocksRelay() throws IOException {
    this(InetAddress.getLoopbackAddress(), link -> { });
  }

  /** A relay on {@code bind} (any free port) that hands each new link to {@code onLink} once it relays. */
  SocksRelay(InetAddress bind, Consumer<Link> onLink) throws IOException {
    this.server = new ServerSocket(0, 16, bind);
    this.onLink = onLink;
    acceptor = new Thread(this::accept, "socks-relay");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Where the relay listens. */
  InetSocketAddress address() {
    return new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
  }

  /** Sends every plain socket connection of this JVM through the relay (other schemes go direct). */
  ProxySelector selector() {
    InetSocketAddress relay = address();
    return new ProxySelector() {
      @Override
      public List<Proxy> select(URI uri) {
        return "socket".equals(uri.getScheme()) ? List.of(new Proxy(Proxy.Type.SOCKS, relay)) : List.of(Proxy.NO_PROXY);
      }

      @Override
      public void connectFailed(URI uri, SocketAddress sa, IOException ioe) {
        // the test sees the failure itself
      }
    };
  }

  /** The connections relayed so far, in the order they were opened. */
  List<Link> links() {
    return List.copyOf(links);
  }

  /** Exactly what a client would send in clear to call {@code markThenSleep(marker, 0)} on a {@link Counter}. */
  static byte[] forgedCall(String marker) throws Exception {
    RemoteMethod m = RemoteMethod.of(Counter.class.getMethod("markThenSleep", String.class, long.class));
    FrameBuffer frame = new FrameBuffer(64).name(m.signatureUtf8());
    new ValueCodec().writeAll(m.parameters(), new Object[] {marker, 0L}, frame);
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    frame.writeFrame(b, Frames.CALL, 3, true);
    return b.toByteArray();
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        sockets.add(client);
        Thread t = new Thread(() -> open(client), "socks-relay-link");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  /** SOCKS5 without authentication, CONNECT only (what the JDK's socket asks for). */
  private void open(Socket client) {
    try {
      DataInputStream in = new DataInputStream(client.getInputStream());
      OutputStream out = client.getOutputStream();
      if (in.readUnsignedByte() != 5) {
        throw new IOException("not SOCKS5");
      }
      in.skipNBytes(in.readUnsignedByte()); // the methods offered
      out.write(new byte[] {5, 0});
      byte[] request = new byte[4];
      in.readFully(request);
      InetAddress host = switch (request[3]) {
        case 1 -> InetAddress.getByAddress(in.readNBytes(4));
        case 4 -> InetAddress.getByAddress(in.readNBytes(16));
        case 3 -> InetAddress.getByName(new String(in.readNBytes(in.readUnsignedByte()), StandardCharsets.US_ASCII));
        default -> throw new IOException("address type " + request[3]);
      };
      int port = in.readUnsignedShort();
      Socket job = new Socket(Proxy.NO_PROXY);
      sockets.add(job);
      job.setTcpNoDelay(true);
      job.connect(new InetSocketAddress(host, port), 5_000);
      client.setTcpNoDelay(true);
      out.write(new byte[] {5, 0, 0, 1, 0, 0, 0, 0, 0, 0});
      out.flush();
      Link link;
      synchronized (links) {
        link = new Link(links.size(), client, job);
        links.add(link);
      }
      onLink.accept(link);
      link.start(in);
    } catch (IOException e) {
      closeQuietly(client);
    }
  }

  /** One relayed connection: the client's bytes go to the job through {@link #toJob}, the job's back. */
  static final class Link {

    private final int index;
    private final Socket client;
    private final Socket job;
    private final OutputStream toJob;
    private final ByteArrayOutputStream sent = new ByteArrayOutputStream();
    private final CompletableFuture<String> ended = new CompletableFuture<>();
    private int mark;
    private boolean alterNext;

    private Link(int index, Socket client, Socket job) throws IOException {
      this.index = index;
      this.client = client;
      this.job = job;
      this.toJob = job.getOutputStream();
    }

    private void start(InputStream fromClient) throws IOException {
      pump(job.getInputStream(), client.getOutputStream(), null, "job");
      pump(fromClient, toJob, this, "client");
    }

    /** This link's place among the relay's links, from 0. */
    int index() {
      return index;
    }

    /** Where the client connected from. */
    SocketAddress from() {
      return client.getRemoteSocketAddress();
    }

    /** Where the relay connected to for the client: the job's data port. */
    SocketAddress to() {
      return job.getRemoteSocketAddress();
    }

    /** Completes with the side whose stream ended first ({@code "job"} or {@code "client"}), once one did. */
    CompletableFuture<String> ended() {
      return ended;
    }

    /** Writes {@code bytes} to the job as if the client had sent them, between two of the client's writes. */
    synchronized void inject(byte[] bytes) throws IOException {
      toJob.write(bytes);
      toJob.flush();
    }

    /** Remembers where the client's bytes are now, for {@link #sinceMark}. */
    synchronized void mark() {
      mark = sent.size();
    }

    /** What the client sent since the last {@link #mark}. */
    synchronized byte[] sinceMark() {
      byte[] all = sent.toByteArray();
      return Arrays.copyOfRange(all, mark, all.length);
    }

    /** Flips a bit in the last byte of the client's next write to the job. */
    synchronized void alterNext() {
      alterNext = true;
    }

    private synchronized void forward(byte[] b, int n) throws IOException {
      if (alterNext) {
        b[n - 1] ^= 1;
        alterNext = false;
      }
      sent.write(b, 0, n);
      toJob.write(b, 0, n);
      toJob.flush();
    }

    /** Copies one side's stream to the other; {@code side} names the side it reads. */
    private void pump(InputStream in, OutputStream out, Link recording, String side) {
      Thread t = new Thread(() -> {
        byte[] b = new byte[64 * 1024];
        try {
          for (int n = in.read(b); n >= 0; n = in.read(b)) {
            if (recording != null) {
              recording.forward(b, n);
            } else {
              out.write(b, 0, n);
              out.flush();
            }
          }
        } catch (IOException e) {
          // one side closed (or reset) the connection
        }
        ended.complete(side);
        closeQuietly(client);
        closeQuietly(job);
      }, "socks-relay-from-" + side);
      t.setDaemon(true);
      t.start();
    }
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket s : sockets) {
      closeQuietly(s);
    }
  }
}
