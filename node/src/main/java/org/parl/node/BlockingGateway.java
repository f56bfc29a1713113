package org.parl.node;

import io.vertx.core.buffer.Buffer;
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
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.parl.AuthenticationException;
import org.parl.cluster.ClusterInfo;
import org.parl.net.HostPort;
import org.parl.security.ClusterToken;
import org.parl.tls.TlsPolicy;
import org.parl.wire.BadMessageException;
import org.parl.wire.ErrorKind;
import org.parl.wire.JsonLines;
import org.parl.wire.gateway.ClientHandshake;
import org.parl.wire.gateway.GatewayAuth;
import org.parl.wire.gateway.GatewayCodec;
import org.parl.wire.gateway.GatewayReply;
import org.parl.wire.gateway.GatewayRequest;

/**
 * One hello to a master's gateway from a command-line process (no Vert.x event loop needed): used
 * by workers and monitors to learn how to join, and by {@code parl status}. It speaks TLS and
 * authenticates with the cluster token first ({@link ClientHandshake}); every wait has a deadline.
 * Each method throws {@link AuthenticationException} when the master refuses the token or does not
 * prove that it holds it, and {@link NodeFailure} when nothing answers like a parl master.
 */
public final class BlockingGateway {

  private static final int CONNECT_TIMEOUT_MS = 5_000;
  private static final int READ_TIMEOUT_MS = 10_000;
  private static final SSLContext TLS = AnyCertificate.context();

  private BlockingGateway() {}

  /** How a worker joins the cluster of the master at {@code master}. */
  public static ClusterInfo joinAsWorker(HostPort master, ClusterToken token) {
    return ClusterInfo.of(ask(master, token, new GatewayRequest.WorkerHello(1), GatewayReply.Joining.class).cluster());
  }

  /** How a monitor joins the cluster of the master at {@code master}. */
  public static ClusterInfo joinAsMonitor(HostPort master, ClusterToken token) {
    return ClusterInfo.of(ask(master, token, new GatewayRequest.MonitorHello(1), GatewayReply.Joining.class).cluster());
  }

  /** How a standby master joins the cluster of the master at {@code master} (docs/contract.md §10). */
  public static ClusterInfo joinAsMaster(HostPort master, ClusterToken token) {
    return ClusterInfo.of(ask(master, token, new GatewayRequest.MasterHello(1), GatewayReply.Joining.class).cluster());
  }

  /** The cluster's state in figures, for {@code parl status}. */
  public static GatewayReply.Status status(HostPort master, ClusterToken token) {
    return ask(master, token, new GatewayRequest.StatusHello(1), GatewayReply.Status.class);
  }

  /**
   * Drains or undrains a worker, or one of its GPUs (docs/contract.md §11).
   *
   * @param gpu the GPU's index, or null for the whole worker
   * @throws NodeFailure with the master's sentence when it refuses (an unknown worker or GPU, say)
   */
  public static void drain(HostPort master, ClusterToken token, String workerId, Integer gpu, boolean drained) {
    ask(master, token, new GatewayRequest.DrainHello(1, workerId, gpu, drained), GatewayReply.Done.class);
  }

  private static <A extends GatewayReply.Answer> A ask(HostPort master, ClusterToken token, GatewayRequest request,
      Class<A> answerType) {
    try (Socket plain = new Socket()) {
      plain.connect(new InetSocketAddress(master.host(), master.port()), CONNECT_TIMEOUT_MS);
      plain.setSoTimeout(READ_TIMEOUT_MS);
      try (SSLSocket s = (SSLSocket) TLS.getSocketFactory().createSocket(plain, master.host(), master.port(), true)) {
        s.setEnabledProtocols(TlsPolicy.PARL_PROTOCOLS.toArray(String[]::new));
        s.startHandshake();
        InputStream in = new BufferedInputStream(s.getInputStream());
        OutputStream out = s.getOutputStream();
        authenticate(master, token, GatewayAuth.fingerprint(s.getSession().getPeerCertificates()[0]), in, out);
        write(out, GatewayCodec.encode(request));
        GatewayReply answer = read(in, master);
        if (answer instanceof GatewayReply.Failed f) {
          throw new NodeFailure("the master at " + master + " refused: " + f.message());
        }
        if (!answerType.isInstance(answer)) {
          throw notParl(master);
        }
        return answerType.cast(answer);
      }
    } catch (ConnectException e) {
      throw new NodeFailure("no parl master answers at " + master + " (connection refused): start one with "
          + "'bin/parl master --port " + master.port() + "' first, or check --address");
    } catch (SocketTimeoutException e) {
      throw new NodeFailure("no parl master answers at " + master + " (timed out): check --address and that the master runs");
    } catch (BadMessageException | SSLException e) {
      throw notParl(master);
    } catch (IOException e) {
      throw new NodeFailure("cannot reach a parl master at " + master + ": " + e.getMessage());
    }
  }

  /** Answers the gateway's challenge and checks its proof; nothing else is sent before. */
  private static void authenticate(HostPort master, ClusterToken token, byte[] seenFingerprint, InputStream in,
      OutputStream out) throws IOException {
    if (!(read(in, master) instanceof GatewayReply.Challenge challenge)) {
      throw notParl(master);
    }
    ClientHandshake handshake = new ClientHandshake(token, seenFingerprint);
    write(out, GatewayCodec.encode(handshake.answer(challenge, 0)));
    GatewayReply answer = read(in, master);
    if (answer instanceof GatewayReply.Failed f && f.kind() == ErrorKind.UNAUTHENTICATED) {
      throw ClientHandshake.refused(master.toString(), token);
    }
    if (!(answer instanceof GatewayReply.Authenticated proven) || !handshake.verify(proven)) {
      throw ClientHandshake.unproven(master.toString(), token);
    }
  }

  /** One line in one write: a peer that answers anything and closes must not break it halfway. */
  private static void write(OutputStream out, byte[] json) throws IOException {
    byte[] line = Arrays.copyOf(json, json.length + 1);
    line[json.length] = '\n';
    out.write(line);
    out.flush();
  }

  private static GatewayReply read(InputStream in, HostPort master) throws IOException {
    return GatewayCodec.reply(Buffer.buffer(readLine(in, master)));
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
