package org.parl.internal.client;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.parl.internal.wire.DataMessage;
import org.parl.internal.wire.DataMessageCodec;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.Frames;

/**
 * A job process as far as an {@link ActorConnection} can tell: a loopback server for one
 * connection that hands the frames it receives to the test, which answers them when and in the
 * order it likes; or, in echo mode, answers each request at once with its own payload.
 */
final class FakeJob implements AutoCloseable {

  private final ServerSocket server;
  private final boolean echo;
  private final BlockingQueue<Frames.Frame> received = new LinkedBlockingQueue<>();
  private final Thread thread;
  private volatile Socket socket;
  private OutputStream out;

  FakeJob(boolean echo) throws IOException {
    this.server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    this.echo = echo;
    this.thread = new Thread(this::serve, "fake-job");
    thread.setDaemon(true);
    thread.start();
  }

  ActorConnection connect() throws IOException {
    return ActorConnection.open(server.getInetAddress().getHostAddress(), server.getLocalPort(), 5_000);
  }

  private void serve() {
    try (Socket s = server.accept()) {
      s.setTcpNoDelay(true);
      synchronized (this) {
        socket = s;
        out = s.getOutputStream();
      }
      DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
      while (true) {
        Frames.Frame f = Frames.read(in);
        if (echo) {
          answer(f);
        } else {
          received.add(f);
        }
      }
    } catch (EOFException e) {
      // the client closed
    } catch (IOException e) {
      // closed by the test
    }
  }

  /** The next request the client sent, within 5 s. */
  Frames.Frame next() throws InterruptedException {
    Frames.Frame f = received.poll(5, TimeUnit.SECONDS);
    assertNotNull(f, "the fake job received no request within 5 s");
    return f;
  }

  /** Answers a request with its own payload. */
  synchronized void answer(Frames.Frame request) throws IOException {
    Frames.write(out, Frames.RESULT, request.id(), Arrays.copyOf(request.payload(), request.length()));
  }

  /** Answers a request with an ERROR frame, as a job does. */
  synchronized void fail(Frames.Frame request, ErrorKind kind, String message) throws IOException {
    Frames.write(out, Frames.ERROR, request.id(), DataMessageCodec.encode(new DataMessage.Failure(kind, message)));
  }

  /** Answers a request with an ERROR frame of this body, as a broken job might. */
  synchronized void fail(Frames.Frame request, byte[] body) throws IOException {
    Frames.write(out, Frames.ERROR, request.id(), body);
  }

  /** Closes the connection, as a job process that dies does. */
  synchronized void dropConnection() throws IOException {
    socket.close();
  }

  @Override
  public void close() throws IOException {
    server.close();
    Socket s = socket;
    if (s != null) {
      s.close();
    }
  }
}
