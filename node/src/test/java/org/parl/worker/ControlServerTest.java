package org.parl.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.security.SharedSecret;
import org.parl.internal.wire.ControlAuth;
import org.parl.internal.wire.DataAuth;
import org.parl.internal.wire.JobControl;
import org.parl.internal.wire.JobControlCodec;

/**
 * The worker's control port against fake job processes on loopback: only a connection that proves
 * it holds the secret of a process the worker started is believed, the worker proves itself in
 * return, and one that stalls is closed.
 */
class ControlServerTest {

  private static final String TOKEN = "cd".repeat(32);

  @TempDir
  Path tmp;

  private Vertx vertx;
  private final JobTable table = new JobTable();
  private JobProcess job;
  private int port;
  /** What the worker handed on from ready processes, in order. */
  private final BlockingQueue<JobControl.ToWorker> afterReady = new LinkedBlockingQueue<>();

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    job = new JobProcess("w1-1", List.of(), 0, false, tmp.resolve("w1-1.log"), tmp.resolve("w1-1"));
    job.started(new ProcessBuilder("sleep", "60").start(), null, null);
    table.add(job);
  }

  private void listen(long deadlineMs) throws Exception {
    ControlServer server = new ControlServer(table, deadlineMs);
    server.afterReady((p, msg) -> afterReady.add(msg));
    server.listen(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    port = server.port();
  }

  @AfterEach
  void stop() throws Exception {
    job.process().destroyForcibly();
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /** A process at the other end of a control connection, speaking JSON lines. */
  private final class FakeJob implements AutoCloseable {
    final Socket socket;
    final BufferedReader in;
    final byte[] workerNonce;
    final byte[] nonce = ClusterToken.nonce(SharedSecret.BYTES);

    FakeJob() throws IOException {
      socket = new Socket(InetAddress.getLoopbackAddress(), port);
      socket.setSoTimeout(5_000);
      in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
      JobControl.Challenge challenge = assertInstanceOf(JobControl.Challenge.class, next(), "the worker speaks first");
      workerNonce = DataAuth.bytes32(challenge.nonce());
    }

    /** The hello of a process holding {@code secret}, answering the challenge {@code to}. */
    JobControl.Hello hello(SharedSecret secret, byte[] to) {
      HexFormat hex = HexFormat.of();
      return new JobControl.Hello(job.slot(), hex.formatHex(nonce), hex.formatHex(ControlAuth.helloProof(secret, to, nonce, job.slot())));
    }

    void send(JobControl.ToWorker msg) throws IOException {
      send(new String(JobControlCodec.encode(msg), StandardCharsets.UTF_8));
    }

    /** Sends one line as is. */
    void send(String line) throws IOException {
      socket.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
      socket.getOutputStream().flush();
    }

    /** The next message, or null once the worker closed the connection. */
    JobControl.ToJob next() throws IOException {
      try {
        String line = in.readLine();
        return line == null ? null : JobControlCodec.toJob(line.getBytes(StandardCharsets.UTF_8));
      } catch (SocketException reset) {
        return null;
      }
    }

    JobControl.Ready ready() {
      return new JobControl.Ready(job.slot(), job.pid(), 4242, TOKEN, TOKEN);
    }

    /** Proves itself and says ready, as a job process does; returns once the worker believed it. */
    void handshake() throws Exception {
      send(hello(job.secret(), workerNonce));
      assertInstanceOf(JobControl.Welcome.class, next());
      send(ready());
      job.whenReady().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  @Test
  void aProcessWithItsSecretIsBelievedAndTheWorkerProvesItselfInReturn() throws Exception {
    listen(10_000);
    try (FakeJob fake = new FakeJob()) {
      fake.send(fake.hello(job.secret(), fake.workerNonce));
      JobControl.Welcome welcome = assertInstanceOf(JobControl.Welcome.class, fake.next());
      assertTrue(ControlAuth.verifyWelcome(job.secret(), DataAuth.bytes32(welcome.proof()), fake.workerNonce,
          fake.nonce, job.slot()), "the worker holds the secret too");
      fake.send(fake.ready());
      JobProcess ready = job.whenReady().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
      assertEquals(4242, ready.lastReady().port());
      assertEquals(TOKEN, ready.lastReady().token());
    }
  }

  @Test
  void aProcessWithoutTheSecretIsRefusedAndItsReadyNeverBelieved() throws Exception {
    listen(10_000);
    try (FakeJob fake = new FakeJob()) {
      fake.send(fake.hello(SharedSecret.random(), fake.workerNonce));
      fake.send(fake.ready());
      assertNull(fake.next(), "no welcome: the connection closes");
    }
    try (FakeJob fake = new FakeJob()) {
      fake.send(fake.ready());
      assertNull(fake.next(), "a ready without a proof closes the connection");
    }
    assertFalse(job.whenReady().isComplete());
    assertEquals(JobProcess.State.STARTING, job.state());
  }

  @Test
  void aHelloRecordedOnAnotherConnectionIsRefused() throws Exception {
    listen(10_000);
    try (FakeJob first = new FakeJob(); FakeJob second = new FakeJob()) {
      second.send(first.hello(job.secret(), first.workerNonce));
      assertNull(second.next(), "a proof over another connection's challenge");
      first.send(first.hello(job.secret(), first.workerNonce));
      assertInstanceOf(JobControl.Welcome.class, first.next(), "the process itself still gets in");
    }
  }

  @Test
  void aConnectionThatStallsIsClosed() throws Exception {
    listen(300);
    try (FakeJob fake = new FakeJob()) {
      assertNull(fake.next(), "closed at the deadline");
    }
    assertFalse(job.whenReady().isComplete());
  }

  @Test
  void aHelloThatIsNotOneOrNotJsonIsRefused() throws Exception {
    listen(10_000);
    try (FakeJob fake = new FakeJob()) {
      fake.send("{\"type\":\"Hello\",\"slot\":\"" + job.slot() + "\",\"nonce\":\"ab\",\"proof\":\"" + TOKEN + "\"}");
      assertNull(fake.next(), "a nonce of the wrong form closes the connection");
    }
    try (FakeJob fake = new FakeJob()) {
      fake.send("{\"type\":\"Pong\",\"calls\":1}");
      assertNull(fake.next(), "any other message first closes the connection");
    }
    try (FakeJob fake = new FakeJob()) {
      fake.send("hello?");
      assertNull(fake.next(), "so does a line that is not JSON");
    }
    assertFalse(job.whenReady().isComplete());
  }

  @Test
  void aReadyProcessIsHeardInTypedMessagesAndAnUnknownOneIsIgnored() throws Exception {
    listen(10_000);
    try (FakeJob fake = new FakeJob()) {
      fake.handshake();
      fake.send(new JobControl.Pong(7));
      fake.send(new JobControl.Stopping("no room for a payload"));
      fake.send("{\"type\":\"Bogus\"}");
      fake.send(new String(JobControlCodec.encode(new JobControl.Ping()), StandardCharsets.UTF_8));
      fake.send("{\"type\":\"Released\",\"calls\":\"many\"}");
      fake.send(new JobControl.Released(9));
      assertEquals(new JobControl.Released(9), afterReady.poll(5, TimeUnit.SECONDS), "a message the worker does not take is ignored");
      assertTrue(afterReady.isEmpty());
      assertEquals(7, job.calls(), "a pong carries the calls served");
      assertEquals("no room for a payload", job.stopCause());
      assertTrue(job.exitedItself());
      assertFalse(job.whenLinkClosed().isComplete());
      fake.send("not json");
      job.whenLinkClosed().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
      assertNull(fake.next(), "a line that is not JSON closes the link");
    }
  }
}
