package org.parl.worker;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import org.parl.wire.JsonLines;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loopback server a worker's job processes connect back to (JSON lines). A connection counts
 * only once its first message is a {@code ready} from a process this worker started and still
 * waits for (slot, pid, data port and token); after that it carries the job's pongs one way and
 * the worker's {@code assign} and pings the other. Runs on the worker verticle's context.
 */
final class ControlServer {

  private static final Logger log = LoggerFactory.getLogger(ControlServer.class);

  private final JobTable table;
  private int port;

  ControlServer(JobTable table) {
    this.table = table;
  }

  Future<Void> listen(Vertx vertx) {
    return vertx.createNetServer(new NetServerOptions().setHost("127.0.0.1").setPort(0).setTcpNoDelay(true))
        .connectHandler(this::connected)
        .listen()
        .map(server -> {
          port = server.actualPort();
          return null;
        });
  }

  /** The port job processes are told to connect back to. */
  int port() {
    return port;
  }

  /** Sends a message to a process that is connected; one that is not yet has nothing to hear. */
  static void send(JobProcess p, JsonObject msg) {
    if (p.control != null) {
      JsonLines.write(p.control, msg);
    }
  }

  private void connected(NetSocket socket) {
    JobProcess[] bound = new JobProcess[1];
    JsonLines.read(socket, msg -> {
      if (bound[0] == null) {
        bound[0] = ready(socket, msg);
        if (bound[0] == null) {
          socket.close();
        }
        return;
      }
      JobProcess p = bound[0];
      switch (msg.getString("op", "")) {
        case "pong" -> {
          p.lastPong = System.currentTimeMillis();
          if (msg.getValue("calls") instanceof Number n) {
            p.calls = n.longValue();
          }
        }
        default -> log.debug("job process {} said {}", p.slot, msg);
      }
    }, bad -> socket.close());
  }

  /** The first message of a control connection must be a ready from a process this worker started. */
  private JobProcess ready(NetSocket socket, JsonObject msg) {
    JobProcess p = table.live(String.valueOf(msg.getValue("slot")));
    if (p == null || p.state != JobProcess.State.STARTING || !"ready".equals(msg.getString("op"))
        || !(msg.getValue("pid") instanceof Number pid) || pid.longValue() != p.pid()
        || !(msg.getValue("port") instanceof Integer dataPort) || !(msg.getValue("token") instanceof String token)) {
      log.warn("refused a control connection that is not one of this worker's job processes: {}", msg);
      return null;
    }
    p.control = socket;
    p.port = dataPort;
    p.token = token;
    p.lastPong = System.currentTimeMillis();
    p.state = JobProcess.State.IDLE;
    p.ready.tryComplete(p);
    return p;
  }
}
