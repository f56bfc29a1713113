package org.parl.node;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Arrays;
import org.parl.cluster.ClusterInfo;
import org.parl.net.HostPort;
import org.parl.wire.BadMessageException;
import org.parl.wire.JsonLines;
import org.parl.wire.gateway.GatewayCodec;
import org.parl.wire.gateway.GatewayReply;
import org.parl.wire.gateway.GatewayRequest;

/**
 * One hello to a master's gateway from a command-line process (no Vert.x event loop needed): used
 * by workers and monitors to learn how to join, and by {@code parl status}.
 */
public final class BlockingGateway {

  private static final int CONNECT_TIMEOUT_MS = 5_000;
  private static final int READ_TIMEOUT_MS = 10_000;

  private BlockingGateway() {}

  /** How a worker joins the cluster of the master at {@code master}. */
  public static ClusterInfo joinAsWorker(HostPort master) {
    return ClusterInfo.of(ask(master, new GatewayRequest.WorkerHello(1), GatewayReply.Joining.class).cluster());
  }

  /** How a monitor joins the cluster of the master at {@code master}. */
  public static ClusterInfo joinAsMonitor(HostPort master) {
    return ClusterInfo.of(ask(master, new GatewayRequest.MonitorHello(1), GatewayReply.Joining.class).cluster());
  }

  /** The cluster's state in figures, for {@code parl status}. */
  public static GatewayReply.Status status(HostPort master) {
    return ask(master, new GatewayRequest.StatusHello(1), GatewayReply.Status.class);
  }

  /**
   * The answer to a hello with the given role ({@code worker}, {@code monitor} or {@code status})
   * as JSON: the cluster's description, plus for {@code status} its {@code workers} and the
   * {@code jobs}, {@code waiting} and {@code clients} counts. For callers that read JSON; the
   * methods above are typed.
   *
   * @throws NodeFailure when nothing answers or the answer is not a parl master's
   */
  public static JsonObject hello(HostPort master, String role) {
    return switch (role) {
      case "worker" -> joinAsWorker(master).toJson();
      case "monitor" -> joinAsMonitor(master).toJson();
      case "status" -> {
        GatewayReply.Status s = status(master);
        yield GatewayCodec.toJson(s.cluster())
            .put("workers", GatewayCodec.toJson(s).getJsonArray("workers"))
            .put("jobs", s.jobs())
            .put("waiting", s.waiting())
            .put("clients", s.clients());
      }
      default -> throw new IllegalArgumentException("a hello's role is worker, monitor or status, not " + role);
    };
  }

  private static <A extends GatewayReply.Answer> A ask(HostPort master, GatewayRequest request, Class<A> answerType) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(master.host(), master.port()), CONNECT_TIMEOUT_MS);
      s.setSoTimeout(READ_TIMEOUT_MS);
      OutputStream out = s.getOutputStream();
      byte[] json = GatewayCodec.encode(request);
      byte[] line = Arrays.copyOf(json, json.length + 1);
      line[json.length] = '\n';
      out.write(line); // in one write: a peer that answers anything and closes must not break it halfway
      out.flush();
      GatewayReply answer = GatewayCodec.reply(Buffer.buffer(readLine(new BufferedInputStream(s.getInputStream()), master)));
      if (answer instanceof GatewayReply.Failed f) {
        throw new NodeFailure("the master at " + master + " refused: " + f.message());
      }
      if (!answerType.isInstance(answer)) {
        throw notParl(master);
      }
      return answerType.cast(answer);
    } catch (ConnectException e) {
      throw new NodeFailure("no parl master answers at " + master + " (connection refused): start one with "
          + "'bin/parl master --port " + master.port() + "' first, or check --address");
    } catch (SocketTimeoutException e) {
      throw new NodeFailure("no parl master answers at " + master + " (timed out): check --address and that the master runs");
    } catch (BadMessageException e) {
      throw notParl(master);
    } catch (IOException e) {
      throw new NodeFailure("cannot reach a parl master at " + master + ": " + e.getMessage());
    }
  }

  /** One line, at most {@link JsonLines#MAX_LINE} bytes: a peer that sends more is not a master. */
  private static byte[] readLine(InputStream in, HostPort master) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0 || line.size() >= JsonLines.MAX_LINE) {
        throw notParl(master);
      }
      line.write(b);
    }
    return line.toByteArray();
  }

  private static NodeFailure notParl(HostPort master) {
    return new NodeFailure(master + " does not answer like a parl master: check --address");
  }
}
