package org.parl.job;

import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.Map;
import java.util.function.Consumer;
import org.parl.security.ClusterToken;
import org.parl.security.SharedSecret;
import org.parl.wire.ControlAuth;
import org.parl.wire.DataAuth;

/**
 * The job's line to its worker over loopback (JSON lines). The two first prove to each other that
 * they hold the secret the worker gave this process ({@link ControlAuth}); then the job says it is
 * ready, and the worker assigns it a job id and pings it. When the worker's end closes, the worker
 * is gone and the job ends too, so that no job outlives its worker.
 */
final class ControlLink {

  private static final ObjectMapper JSON = JobJson.MAPPER;
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
    Map<?, ?> challenge = readHandshakeLine();
    byte[] workerNonce = DataAuth.bytes32(challenge.get("nonce"));
    if (!"challenge".equals(challenge.get("op")) || workerNonce == null) {
      throw new IOException("the worker's control port sent no challenge");
    }
    byte[] nonce = ClusterToken.nonce(SharedSecret.BYTES);
    HexFormat hex = HexFormat.of();
    send(Map.of("op", "hello", "slot", slot, "nonce", hex.formatHex(nonce),
        "proof", hex.formatHex(ControlAuth.helloProof(secret, workerNonce, nonce, slot))));
    Map<?, ?> welcome = readHandshakeLine();
    if (!"welcome".equals(welcome.get("op"))
        || !ControlAuth.verifyWelcome(secret, DataAuth.bytes32(welcome.get("proof")), workerNonce, nonce, slot)) {
      throw new IOException("the control port did not prove that it is this process's worker");
    }
    socket.setSoTimeout(0);
  }

  private Map<?, ?> readHandshakeLine() throws IOException {
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
    return JSON.readValue(line.toByteArray(), Map.class);
  }

  synchronized void send(Map<String, ?> msg) {
    try {
      out.write(JSON.writeValueAsBytes(msg));
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

  /** Reads the worker's messages on a daemon thread; {@code onClosed} runs when the link breaks. */
  void start(Consumer<Map<String, Object>> onMessage, Runnable onClosed) {
    Thread t = RuntimeThreads.create(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          @SuppressWarnings("unchecked")
          Map<String, Object> msg = JSON.readValue(line, Map.class);
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
