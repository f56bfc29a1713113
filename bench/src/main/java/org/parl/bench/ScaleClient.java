package org.parl.bench;

import io.vertx.core.buffer.Buffer;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import javax.net.ssl.SSLSocket;
import org.parl.net.HostPort;
import org.parl.node.AnyCertificate;
import org.parl.resources.ResourceRequest;
import org.parl.security.ClusterToken;
import org.parl.wire.JsonLines;
import org.parl.wire.gateway.ClientHandshake;
import org.parl.wire.gateway.GatewayAuth;
import org.parl.wire.gateway.GatewayCodec;
import org.parl.wire.gateway.GatewayReply;
import org.parl.wire.gateway.GatewayRequest;

/**
 * One client of the master's gateway for the scale benchmark, speaking its typed protocol over a
 * blocking TLS socket from one thread: it authenticates with the cluster token and says hello as a
 * client does, then allocates a job ({@code Create}) and releases it ({@code Kill}), one at a time.
 * A release counts once the gateway answered the kill and told that the job ended (the JobCenter
 * has taken its resources back).
 */
final class ScaleClient implements AutoCloseable {

  private static final int CONNECT_TIMEOUT_MS = 5_000;
  private static final int READ_TIMEOUT_MS = 30_000;
  private static final long RESOURCE_WAIT_MS = 30_000;

  private final SSLSocket socket;
  private final InputStream in;
  private final OutputStream out;
  /** Jobs whose end the gateway told before the kill's answer came. */
  private final Set<String> endedEarly = new HashSet<>();
  private long nextId = 1;

  ScaleClient(HostPort master, ClusterToken token) throws IOException {
    Socket plain = new Socket();
    try {
      plain.connect(new InetSocketAddress(master.host(), master.port()), CONNECT_TIMEOUT_MS);
      plain.setSoTimeout(READ_TIMEOUT_MS);
      plain.setTcpNoDelay(true);
      socket = (SSLSocket) AnyCertificate.context().getSocketFactory().createSocket(plain, master.host(), master.port(),
          true);
      socket.startHandshake();
      in = new BufferedInputStream(socket.getInputStream());
      out = socket.getOutputStream();
      hello(master, token);
    } catch (IOException | RuntimeException e) {
      plain.close();
      throw e;
    }
  }

  /** Proves the token, checks the gateway's proof, then says hello as a client. */
  private void hello(HostPort master, ClusterToken token) throws IOException {
    if (!(read() instanceof GatewayReply.Challenge challenge)) {
      throw new IOException("the master at " + master + " did not start authentication");
    }
    ClientHandshake handshake = new ClientHandshake(token, GatewayAuth.fingerprint(socket.getSession().getPeerCertificates()[0]));
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
    byte[] json = GatewayCodec.encode(r);
    byte[] line = Arrays.copyOf(json, json.length + 1);
    line[json.length] = '\n';
    out.write(line);
    out.flush();
  }

  private GatewayReply read() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream(256);
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0 || line.size() >= JsonLines.MAX_LINE) {
        throw new IOException("the master closed the connection");
      }
      line.write(b);
    }
    return GatewayCodec.reply(Buffer.buffer(line.toByteArray()));
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
