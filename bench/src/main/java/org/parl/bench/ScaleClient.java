package org.parl.bench;

import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import org.parl.internal.net.HostPort;
import org.parl.internal.resources.ResourceRequest;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.wire.LineSocket;
import org.parl.internal.wire.gateway.ClientHandshake;
import org.parl.internal.wire.gateway.GatewayAuth;
import org.parl.internal.wire.gateway.GatewayCodec;
import org.parl.internal.wire.gateway.GatewayReply;
import org.parl.internal.wire.gateway.GatewayRequest;

/**
 * One client of the master's gateway for the scale benchmark, speaking its typed protocol on the
 * gateway clients' one transport ({@link LineSocket}) from one thread: it authenticates with the
 * cluster token (its proof, and the gateway's, bound to the certificate the gateway showed) and says
 * hello as a client does, then allocates a job ({@code Create}) and releases it ({@code Kill}), one at a time.
 * A release counts once the gateway answered the kill and told that the job ended (the JobCenter
 * has taken its resources back).
 */
final class ScaleClient implements AutoCloseable {

  private static final int CONNECT_TIMEOUT_MS = 5_000;
  private static final int READ_TIMEOUT_MS = 30_000;
  private static final long RESOURCE_WAIT_MS = 30_000;

  private final LineSocket socket;
  /** Jobs whose end the gateway told before the kill's answer came. */
  private final Set<String> endedEarly = new HashSet<>();
  private long nextId = 1;

  ScaleClient(HostPort master, ClusterToken token) throws IOException {
    socket = LineSocket.open(master, CONNECT_TIMEOUT_MS, READ_TIMEOUT_MS);
    try {
      socket.readTimeout(READ_TIMEOUT_MS);
      hello(master, token);
    } catch (IOException | RuntimeException e) {
      socket.close();
      throw e;
    }
  }

  /** Proves the token, checks the gateway's proof, then says hello as a client. */
  private void hello(HostPort master, ClusterToken token) throws IOException {
    if (!(read() instanceof GatewayReply.Challenge challenge)) {
      throw new IOException("the master at " + master + " did not start authentication");
    }
    ClientHandshake handshake = new ClientHandshake(token, GatewayAuth.fingerprint(socket.peerCertificate()));
    write(handshake.answer(challenge, nextId++));
    if (!(read() instanceof GatewayReply.Authenticated proven) || !handshake.verify(proven)) {
      throw new IOException("the master at " + master + " refused the token or did not prove it holds it");
    }
    long hello = nextId++;
    write(new GatewayRequest.ClientHello(hello, "parl bench --scale", "localhost", ProcessHandle.current().pid()));
    answer(hello, GatewayReply.Welcome.class);
  }

  /** Allocates a 1-CPU job; its id. */
  String allocate() throws IOException {
    long id = nextId++;
    write(new GatewayRequest.Create(id, ResourceRequest.ofCpus(1), RESOURCE_WAIT_MS, "org.parl.bench.Simulated", false));
    return answer(id, GatewayReply.Created.class).placement().job().jobId();
  }

  /** Releases a job: returns once the kill was answered and the job's end was told. */
  void release(String jobId) throws IOException {
    long id = nextId++;
    write(new GatewayRequest.Kill(id, jobId));
    answer(id, GatewayReply.Done.class);
    if (!endedEarly.remove(jobId)) {
      while (!(read() instanceof GatewayReply.JobEnded e && e.jobId().equals(jobId))) {
        // answers to nothing pending cannot come; other events are about jobs already released
      }
    }
  }

  private <A extends GatewayReply.Answer> A answer(long id, Class<A> type) throws IOException {
    while (true) {
      GatewayReply r = read();
      if (r instanceof GatewayReply.JobEnded e) {
        endedEarly.add(e.jobId());
      } else if (r instanceof GatewayReply.Failed f) {
        throw new IOException("the master refused: " + f.kind() + " " + f.message());
      } else if (r instanceof GatewayReply.Answer a && a.requestId() != null && a.requestId() == id && type.isInstance(a)) {
        return type.cast(a);
      } else {
        throw new IOException("unexpected answer from the master: " + r);
      }
    }
  }

  private void write(GatewayRequest r) throws IOException {
    socket.writeLine(GatewayCodec.encode(r));
  }

  private GatewayReply read() throws IOException {
    byte[] line = socket.readLine();
    if (line == null) {
      throw new IOException("the master closed the connection");
    }
    return GatewayCodec.reply(Buffer.buffer(line));
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
