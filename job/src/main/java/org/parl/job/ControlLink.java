package org.parl.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The job's line to its worker over loopback (JSON lines): the job says it is ready, the worker
 * assigns it a job id and pings it. When the worker's end closes, the worker is gone and the job
 * ends too, so that no job outlives its worker.
 */
final class ControlLink {

  private static final ObjectMapper JSON = JobJson.MAPPER;

  private final Socket socket;
  private final OutputStream out;

  private ControlLink(Socket socket) throws IOException {
    this.socket = socket;
    this.out = socket.getOutputStream();
  }

  static ControlLink connect(String host, int port) throws IOException {
    Socket s = new Socket();
    s.setTcpNoDelay(true);
    s.connect(new InetSocketAddress(host, port), 10_000);
    return new ControlLink(s);
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
    Thread t = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8))) {
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
    }, "parl-control");
    t.setDaemon(true);
    t.start();
  }
}
