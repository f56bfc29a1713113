package org.parl.job;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.function.Consumer;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.security.SharedSecret;
import org.parl.internal.wire.BadMessageException;
import org.parl.internal.wire.ControlAuth;
import org.parl.internal.wire.DataAuth;
import org.parl.internal.wire.JobControl;
import org.parl.internal.wire.JobControlCodec;

/**
 * The job's line to its worker over loopback (JSON lines of {@link JobControl}). The two first prove to each other that
 * they hold the secret the worker gave this process ({@link ControlAuth}); then the job says it is
 * ready, and the worker assigns it a job id and pings it. When the worker's end closes, the worker
 * is gone and the job ends too, so that no job outlives its worker.
 */
final class ControlLink {

  /** Longest line read before the worker has proven itself. */
  private static final int MAX_HANDSHAKE_LINE = 4096;

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  private ControlLink(Socket socket) throws IOException {
    this.socket = socket;
    this.in = new BufferedInputStream(socket.getInputStream());
    this.out = socket.getOutputStream();
  }

  static ControlLink connect(String host, int port) throws IOException {
    Socket s = new Socket();
    s.setTcpNoDelay(true);
    s.connect(new InetSocketAddress(host, port), 10_000);
    return new ControlLink(s);
  }

  /**
   * Answers the worker's challenge and checks its proof in turn, within {@link ControlAuth#DEADLINE_MS}.
   *
   * @throws IOException when the worker refused this process or did not prove itself
   */
  void authenticate(SharedSecret secret, String slot) throws IOException {
    socket.setSoTimeout((int) ControlAuth.DEADLINE_MS);
    String noChallenge = "the worker's control port sent no challenge";
    JobControl.ToJob challenge = readHandshakeLine(noChallenge);
    byte[] workerNonce = challenge instanceof JobControl.Challenge c ? DataAuth.bytes32(c.nonce()) : null;
    if (workerNonce == null) {
      throw new IOException(noChallenge);
    }
    byte[] nonce = ClusterToken.nonce(SharedSecret.BYTES);
    HexFormat hex = HexFormat.of();
    send(new JobControl.Hello(slot, hex.formatHex(nonce), hex.formatHex(ControlAuth.helloProof(secret, workerNonce, nonce, slot))));
    String unproven = "the control port did not prove that it is this process's worker";
    JobControl.ToJob welcome = readHandshakeLine(unproven);
    if (!(welcome instanceof JobControl.Welcome w)
        || !ControlAuth.verifyWelcome(secret, DataAuth.bytes32(w.proof()), workerNonce, nonce, slot)) {
      throw new IOException(unproven);
    }
    socket.setSoTimeout(0);
  }

  /** The worker's next handshake message; one that does not decode fails with {@code refusal} and what was wrong. */
  private JobControl.ToJob readHandshakeLine(String refusal) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) != '\n') {
      if (c < 0) {
        throw new IOException("the worker closed the control link during its handshake");
      }
      if (line.size() >= MAX_HANDSHAKE_LINE) {
        throw new IOException("the control port sent a handshake line longer than " + MAX_HANDSHAKE_LINE + " bytes");
      }
      line.write(c);
    }
    try {
      return JobControlCodec.toJob(line.toByteArray());
    } catch (BadMessageException e) {
      throw new IOException(refusal + ": " + e.getMessage());
    }
  }

  synchronized void send(JobControl.ToWorker msg) {
    try {
      out.write(JobControlCodec.encode(msg));
      out.write('\n');
      out.flush();
    } catch (IOException e) {
      // the reader sees the broken link and ends the job
    }
  }

  /** Closes the link, which also ends the reader's blocking read. */
  void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // closing anyway
    }
  }

  /**
   * Reads the worker's messages on a daemon thread; {@code onClosed} runs when the link breaks. A
   * JSON object that is not a message the job takes is logged and ignored; a line that is not JSON
   * at all counts as a broken link.
   */
  void start(Consumer<JobControl.ToJob> onMessage, Runnable onClosed) {
    Thread t = RuntimeThreads.create(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
          JobControl.ToJob msg;
          try {
            msg = JobControlCodec.toJob(bytes);
          } catch (BadMessageException e) {
            if (!JobControlCodec.isObject(bytes)) {
              break;
            }
            JobMain.log("ignored an unknown control message: " + e.getMessage());
            continue;
          }
          onMessage.accept(msg);
        }
      } catch (IOException e) {
        // fall through: the worker is gone
      }
      onClosed.run();
    }, "parl-control", true);
    t.start();
  }
}
