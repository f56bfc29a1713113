package org.parl.node;

import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import javax.net.ssl.SSLException;
import org.parl.AuthenticationException;
import org.parl.cluster.ClusterInfo;
import org.parl.internal.net.HostPort;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.wire.BadMessageException;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.HttpsServerException;
import org.parl.internal.wire.LineSocket;
import org.parl.internal.wire.gateway.ClientHandshake;
import org.parl.internal.wire.gateway.GatewayAuth;
import org.parl.internal.wire.gateway.GatewayCodec;
import org.parl.internal.wire.gateway.GatewayReply;
import org.parl.internal.wire.gateway.GatewayRequest;

/**
 * One hello to a master's gateway from a command-line process (no Vert.x event loop needed): used
 * by workers and monitors to learn how to join, and by {@code parl status}. It speaks TLS on the
 * gateway clients' one transport ({@link LineSocket}) and authenticates with the cluster token first
 * ({@link ClientHandshake}); every wait has a deadline.
 * Each method throws {@link AuthenticationException} when the master refuses the token or does not
 * prove that it holds it, and {@link NodeFailure} when nothing answers like a parl master.
 */
public final class BlockingGateway {

  private static final int CONNECT_TIMEOUT_MS = 5_000;
  private static final int READ_TIMEOUT_MS = 10_000;

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
    try (LineSocket s = LineSocket.open(master, CONNECT_TIMEOUT_MS, READ_TIMEOUT_MS)) {
      s.readTimeout(READ_TIMEOUT_MS);
      authenticate(master, token, GatewayAuth.fingerprint(s.peerCertificate()), s);
      s.writeLine(GatewayCodec.encode(request));
      GatewayReply answer = read(s, master);
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
    } catch (HttpsServerException e) {
      throw new NodeFailure(ClusterFiles.masterOfMonitor(master)
          .map(gateway -> master + " is parl's monitor port; the master's address is " + gateway)
          .orElse(e.getMessage() + ": give the address 'bin/parl master' printed as 'parl master ready: address "
              + "HOST:PORT' (its monitor's port is that port + 100 unless --monitor-port was set)"));
    } catch (BadMessageException | SSLException | LineSocket.LineTooLong e) {
      throw notParl(master);
    } catch (IOException e) {
      throw new NodeFailure("cannot reach a parl master at " + master + ": " + e.getMessage());
    }
  }

  /** Answers the gateway's challenge and checks its proof; nothing else is sent before. */
  private static void authenticate(HostPort master, ClusterToken token, byte[] seenFingerprint, LineSocket s)
      throws IOException {
    if (!(read(s, master) instanceof GatewayReply.Challenge challenge)) {
      throw notParl(master);
    }
    ClientHandshake handshake = new ClientHandshake(token, seenFingerprint);
    s.writeLine(GatewayCodec.encode(handshake.answer(challenge, 0)));
    GatewayReply answer = read(s, master);
    if (answer instanceof GatewayReply.Failed f && f.kind() == ErrorKind.UNAUTHENTICATED) {
      throw ClientHandshake.refused(master.toString(), token);
    }
    if (!(answer instanceof GatewayReply.Authenticated proven) || !handshake.verify(proven)) {
      throw ClientHandshake.unproven(master.toString(), token);
    }
  }

  /** The next line's reply; a peer that ends the connection first is not a master. */
  private static GatewayReply read(LineSocket s, HostPort master) throws IOException {
    byte[] line = s.readLine();
    if (line == null) {
      throw notParl(master);
    }
    return GatewayCodec.reply(Buffer.buffer(line));
  }

  private static NodeFailure notParl(HostPort master) {
    return new NodeFailure(master + " does not answer like a parl master: check --address");
  }
}
