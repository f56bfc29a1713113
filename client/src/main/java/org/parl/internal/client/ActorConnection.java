package org.parl.internal.client;

import io.vertx.core.Future;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.function.Function;
import javax.net.ssl.SSLSocket;
import org.parl.ActorLostException;
import org.parl.ParlException;
import org.parl.internal.wire.DataAuth;
import org.parl.internal.wire.FrameBuffer;
import org.parl.internal.wire.FrameKeys;
import org.parl.internal.wire.Frames;
import org.parl.internal.wire.IntegrityException;
import org.parl.internal.wire.ProofBoundTls;
import org.parl.internal.wire.SharedLink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data path from a client to one job process: a TCP connection (TLS in a cluster started with
 * {@code --encrypt-data}) on which calls are written by the calling thread ({@link FrameWriter}),
 * answered in order, matched to their requests by id ({@link PendingCalls}), and read by a reader
 * thread or by a blocking caller itself ({@link AnswerReader}). When the connection breaks, every
 * pending and later call fails with {@link ActorLostException}. It is opened by {@link DataHello}; without
 * TLS its frames are sealed once the handshake has succeeded ({@link #seal}).
 */
final class ActorConnection {

  /** Decodes a RESULT payload. */
  interface Decoder<R> {
    /** Decodes the first {@code length} bytes of {@code payload}, which is reused afterwards. */
    R decode(byte[] payload, int length) throws Exception;
  }

  private static final Logger LOG = LoggerFactory.getLogger(ActorConnection.class);

  private final Socket socket;
  /** What has been received, buffered: read by the handshake, then opened record by record when the frames are sealed. */
  private final BufferedInputStream received;
  /** The TCP connection under {@link #socket} (itself without TLS). */
  private final Socket tcp;
  private final byte[] fingerprint;
  private final PendingCalls pending = new PendingCalls();
  private final FrameWriter writer;
  private final AnswerReader reader;
  private Function<IOException, ParlException> onBroken = e -> new ActorLostException(e.getMessage());
  private volatile boolean closing;
  /** Memory shared with a job on this host for large arrays, set during the set-up; null when there is none. */
  private volatile SharedLink shared;

  private ActorConnection(Socket socket, Socket tcp, byte[] fingerprint) throws IOException {
    this.socket = socket;
    this.tcp = tcp;
    this.fingerprint = fingerprint;
    this.writer = new FrameWriter(socket.getOutputStream(), this::closeSocket);
    this.received = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
    this.reader = new AnswerReader(new DataInputStream(received), pending, socket::isClosed, this::broken, this::answered);
  }

  static ActorConnection open(String host, int port, int timeoutMs) throws IOException {
    return open(host, port, timeoutMs, false);
  }

  /** Connects, and with {@code tls} runs the TLS handshake too; the job is not authenticated yet. */
  static ActorConnection open(String host, int port, int timeoutMs, boolean tls) throws IOException {
    Socket s = new Socket();
    try {
      s.setTcpNoDelay(true);
      s.setKeepAlive(true);
      return SetUpDeadline.within(s, timeoutMs, "connecting to " + host + ":" + port, () -> {
        s.connect(new InetSocketAddress(host, port));
        if (!tls) {
          return new ActorConnection(s, s, DataAuth.NO_FINGERPRINT);
        }
        SSLSocket ssl = ProofBoundTls.wrap(s, host, port, 0);
        return new ActorConnection(ssl, s, DataAuth.fingerprint(ProofBoundTls.peerCertificate(ssl)));
      });
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  /**
   * Seals every frame from now on, both ways, under the keys the handshake gave ({@link FrameKeys}):
   * called once the job has proven itself, on a connection without TLS, before anything else is sent.
   */
  void seal(FrameKeys keys) throws IOException {
    writer.sealWith(keys.clientOutput(socket.getOutputStream()));
    reader.readFrom(new DataInputStream(keys.clientInput(received)));
  }

  /** Large arrays on this connection go through {@code link} from now on (set once, before any call). */
  void share(SharedLink link) {
    this.shared = link;
  }

  /** The memory shared with the job, or null when arrays go on the socket. */
  SharedLink shared() {
    return shared;
  }

  /** A new request's use of the shared memory ({@link SharedLink.Lease#NONE} when there is none). */
  SharedLink.Lease lease() {
    SharedLink s = shared;
    return s == null ? SharedLink.Lease.NONE : s.lease();
  }

  /** Answer {@code id} has been read (and decoded, or dropped): the shared half it used, if any, is free again. */
  private void answered(long id) {
    SharedLink s = shared;
    if (s != null) {
      s.received(id);
    }
  }

  /** SHA-256 of the job's TLS certificate as shown on this connection, empty without TLS. */
  byte[] fingerprint() {
    return fingerprint.clone();
  }

  /**
   * Sends the HELLO that opens the connection and reads the job's first frame, whatever it is (an
   * answer, a refusal, or a refusal sent before the HELLO was read): at most
   * {@link Frames#PRE_AUTH_MAX_PAYLOAD} bytes, since the job has not proven itself yet.
   */
  Frames.Frame hello(byte[] hello, int timeoutMs) throws IOException {
    return SetUpDeadline.within(tcp, timeoutMs, "the job's answer to the hello", () -> {
      writer.writeSetUp(pending.nextId(), Frames.HELLO, hello);
      return reader.readSetUp(Frames.PRE_AUTH_MAX_PAYLOAD);
    });
  }

  /**
   * Set-up exchange before the reader runs: sends one frame and reads its answer on this thread.
   *
   * @return the RESULT payload
   * @throws ParlException for an ERROR answer
   */
  byte[] exchange(byte type, byte[] payload, int timeoutMs) throws IOException {
    return exchange(type, payload, timeoutMs, Frames.MAX_PAYLOAD);
  }

  /** {@link #exchange(byte, byte[], int)} accepting an answer of at most {@code maxAnswer} bytes. */
  byte[] exchange(byte type, byte[] payload, int timeoutMs, int maxAnswer) throws IOException {
    long id = pending.nextId();
    Frames.Frame f = SetUpDeadline.within(tcp, timeoutMs, "the job's answer to a set-up request", () -> {
      writer.writeSetUp(id, type, payload);
      return reader.readSetUp(maxAnswer);
    });
    if (f.id() != id) {
      throw new IOException("answer " + f.id() + " does not match request " + id);
    }
    if (f.type() == Frames.ERROR) {
      throw Errors.fromJob(f.payload(), f.length());
    }
    return f.payload();
  }

  /**
   * Ends the set-up: from now on answers are read by their callers or the reader thread, which
   * starts when first needed ({@link AnswerReader#arm}). {@code onBroken} gives the reason a broken
   * connection is reported with (it may wait a moment for the master to say why the job ended).
   */
  void armReader(String name, Function<IOException, ParlException> onBroken) {
    this.onBroken = onBroken;
    reader.arm(name, writer::shutdown);
  }

  /** Sends a request; the future completes with the decoded answer. */
  <R> Future<R> send(byte type, FrameBuffer payload, Decoder<R> decoder) {
    return send(type, payload, decoder, SharedLink.Lease.NONE);
  }

  /** {@link #send(byte, FrameBuffer, Decoder)} of a payload that may have put arrays in the shared memory ({@code lease}). */
  <R> Future<R> send(byte type, FrameBuffer payload, Decoder<R> decoder, SharedLink.Lease lease) {
    Future<R> answer = request(type, payload, decoder, lease);
    reader.wake();
    return answer;
  }

  /**
   * Sends a request for a caller that will wait for its answer (a blocking proxy call). When no
   * other thread is reading, the caller reads the answer itself: the reply then wakes the thread
   * that waits for it directly, with no hand-over from a reader thread.
   */
  <R> Future<R> call(byte type, FrameBuffer payload, Decoder<R> decoder) {
    return call(type, payload, decoder, SharedLink.Lease.NONE);
  }

  /** {@link #call(byte, FrameBuffer, Decoder)} of a payload that may have put arrays in the shared memory ({@code lease}). */
  <R> Future<R> call(byte type, FrameBuffer payload, Decoder<R> decoder, SharedLink.Lease lease) {
    Future<R> answer = request(type, payload, decoder, lease);
    reader.readOwn(answer);
    return answer;
  }

  private <R> Future<R> request(byte type, FrameBuffer payload, Decoder<R> decoder, SharedLink.Lease lease) {
    long id = pending.nextId();
    Future<R> answer = pending.add(id, decoder);
    if (pending.lost() == null) {
      lease.commit(id); // before the frame leaves: the job frees the half once it has read frame id
      writer.write(id, type, payload);
    } else {
      lease.abandon();
      payload.reset(0); // not sent: let go of the caller's arrays it refers to
    }
    return answer;
  }

  /** The connection broke: every pending and later request fails with the reason. */
  private void broken(Exception e) {
    if (e instanceof IntegrityException) {
      LOG.warn("the connection to the job at {} was closed: {}", socket.getRemoteSocketAddress(), e.getMessage());
    }
    if (pending.lost() == null) {
      ParlException reason;
      if (e instanceof IOException io) {
        reason = closing ? new ActorLostException("this actor was closed") : onBroken.apply(io);
      } else {
        reason = new ParlException("the connection to the actor failed: " + e, e);
      }
      pending.loseAll(reason);
    }
    closeSocket();
  }

  boolean isLost() {
    return pending.lost() != null;
  }

  /** Marks the end as expected (the actor is being closed), so it is not reported as a loss. */
  void closing() {
    closing = true;
  }

  /**
   * Closes the connection; the reader thread ends, and requests still pending fail. The TCP
   * connection closes first: closing a TLS socket would wait for a writer blocked on a job that
   * does not read, while closing its TCP connection ends that write at once.
   */
  void closeSocket() {
    try {
      tcp.close();
      socket.close();
    } catch (IOException e) {
      // already closed
    }
    reader.wake();
  }
}
