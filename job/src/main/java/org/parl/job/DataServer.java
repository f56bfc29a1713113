package org.parl.job;

import static org.parl.internal.wire.ErrorKind.INVALID;

import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLSocket;
import org.parl.internal.wire.DataAuth;
import org.parl.internal.wire.Frames;
import org.parl.internal.wire.SharedLink;

/**
 * A job's data port (docs/contract.md §8): connections are accepted on one thread and each is authenticated
 * ({@link Handshake}) on a thread of its own, so that a peer that stalls or sends garbage never
 * holds up another. At most {@code maxPending} connections may be authenticating at once (more are
 * refused at once), and each must finish within the deadline or is closed. The first connection
 * that authenticates is served on its thread, and the port closes: a job serves one client. Its
 * frames are sealed from then on ({@link ClientStreams}).
 */
final class DataServer {

  /** What the job does with its authenticated client; returns when the session ends. */
  interface Session {
    /** @param shared memory shared with the client for large arrays, or null */
    void serve(ClientStreams client, SharedLink shared);
  }

  private final ServerSocket server;
  private final Handshake handshake;
  private final long deadlineMs;
  private final Semaphore pending;
  private final AtomicBoolean taken = new AtomicBoolean();
  private final ScheduledThreadPoolExecutor deadlines =
      new ScheduledThreadPoolExecutor(1, r -> RuntimeThreads.create(r, "parl-data-deadlines", true));
  /**
   * The connections' threads: one is started before the client connects, so that its handshake
   * does not wait for a thread to start; more are started for concurrent
   * connections, at most one per pending handshake plus the session's.
   */
  private final ThreadPoolExecutor connections;

  /** @param server bound, with a short accept timeout so that {@link #serve}'s {@code onIdle} runs */
  DataServer(ServerSocket server, Handshake handshake, long deadlineMs, int maxPending) {
    this.server = server;
    this.handshake = handshake;
    this.deadlineMs = deadlineMs;
    this.pending = new Semaphore(maxPending);
    deadlines.setRemoveOnCancelPolicy(true);
    connections = new ThreadPoolExecutor(1, maxPending + 1, 1, TimeUnit.SECONDS, new SynchronousQueue<>(),
        r -> RuntimeThreads.create(r, "parl-data-connection", false));
    connections.prestartCoreThread();
  }

  /**
   * Accepts connections until one has authenticated (then returns, while its session runs on its
   * own thread) or the port is closed.
   *
   * @param onIdle runs whenever an accept timed out
   */
  void serve(Runnable onIdle, Session session) {
    while (!server.isClosed()) {
      Socket s;
      try {
        s = server.accept();
      } catch (SocketTimeoutException e) {
        onIdle.run();
        continue;
      } catch (IOException e) {
        if (!server.isClosed()) {
          JobMain.log("the data port failed to accept a connection: " + e.getMessage());
          pause();
        }
        continue;
      }
      if (!pending.tryAcquire()) {
        refuse(s);
        continue;
      }
      connections.execute(() -> authenticate(s, session));
    }
    connections.shutdown(); // the session's thread ends with its session
    deadlines.shutdownNow();
  }

  /** Runs the handshake on this connection's own thread; the winner goes on to serve its session here. */
  private void authenticate(Socket s, Session session) {
    ScheduledFuture<?> deadline;
    try {
      deadline = deadlines.schedule(() -> abort(s), deadlineMs, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException portClosed) { // accepted as another client got in: the job serves that one
      pending.release();
      close(s);
      return;
    }
    ClientStreams client;
    SharedLink shared;
    try {
      try {
        s.setTcpNoDelay(true);
        // bounded by the deadline above, which closes the socket: a timed read would leave it
        // non-blocking for good, and every read of the actor's life would then poll first
        if (s instanceof SSLSocket ssl) {
          ssl.startHandshake();
        }
        ClientInput buffered = new ClientInput(s.getInputStream());
        OutputStream out = new BufferedOutputStream(s.getOutputStream(), 64 * 1024);
        Handshake.Hello hello = handshake.check(new DataInputStream(buffered), out);
        if (!deadline.cancel(false) || !taken.compareAndSet(false, true)) {
          close(s); // too late, or another client already authenticated
          return;
        }
        Handshake.Welcome welcome = handshake.welcome(hello, out);
        shared = welcome.shared();
        client = ClientStreams.of(s, buffered, out, welcome.keys());
        server.close();
      } finally {
        pending.release();
      }
    } catch (EOFException e) {
      close(s); // a probe that closed at once
      return;
    } catch (IOException | RuntimeException e) {
      JobMain.log("refused a connection from " + s.getRemoteSocketAddress() + ": " + e.getMessage());
      close(s);
      return;
    }
    session.serve(client, shared);
  }

  /** Over the bound: one ERROR frame where that costs no handshake, and the connection closes. */
  private void refuse(Socket s) {
    if (!(s instanceof SSLSocket)) {
      try {
        Frames.write(s.getOutputStream(), Frames.ERROR, 0, ErrorPayload.of(new CallFailure(INVALID, DataAuth.BUSY)));
      } catch (IOException e) {
        // closing anyway
      }
    }
    close(s);
  }

  /** Closes a connection that ran out of time at once, without waiting for anything to be sent. */
  private static void abort(Socket s) {
    try {
      s.setSoLinger(true, 0);
    } catch (IOException e) {
      // closing anyway
    }
    close(s);
  }

  private static void close(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // already closed
    }
  }

  private static void pause() {
    try {
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
