package org.parl.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.parl.security.ClusterToken;
import org.parl.security.SharedSecret;
import org.parl.wire.ControlAuth;
import org.parl.wire.DataAuth;

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

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    job = new JobProcess("w1-1", List.of(), 0, false, tmp.resolve("w1-1.log"), tmp.resolve("w1-1"));
    job.process = new ProcessBuilder("sleep", "60").start();
    table.add(job);
  }

  private void listen(long deadlineMs) throws Exception {
    ControlServer server = new ControlServer(table, deadlineMs);
    server.listen(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    port = server.port();
  }

  @AfterEach
  void stop() throws Exception {
    job.process.destroyForcibly();
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
      JsonObject challenge = new JsonObject(in.readLine());
      assertEquals("challenge", challenge.getString("op"), "the worker speaks first");
      workerNonce = DataAuth.bytes32(challenge.getString("nonce"));
    }

    /** The hello of a process holding {@code secret}, answering the challenge {@code to}. */
    JsonObject hello(SharedSecret secret, byte[] to) {
      HexFormat hex = HexFormat.of();
      return new JsonObject().put("op", "hello").put("slot", job.slot).put("nonce", hex.formatHex(nonce))
          .put("proof", hex.formatHex(ControlAuth.helloProof(secret, to, nonce, job.slot)));
    }

    void send(JsonObject msg) throws IOException {
      socket.getOutputStream().write((msg.encode() + "\n").getBytes(StandardCharsets.UTF_8));
      socket.getOutputStream().flush();
    }

    /** The next line, or null once the worker closed the connection. */
    JsonObject next() throws IOException {
      try {
        String line = in.readLine();
        return line == null ? null : new JsonObject(line);
      } catch (SocketException reset) {
        return null;
      }
    }

    JsonObject ready() {
      return new JsonObject().put("op", "ready").put("slot", job.slot).put("pid", job.pid()).put("port", 4242)
          .put("token", TOKEN);
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
      fake.send(fake.hello(job.secret, fake.workerNonce));
      JsonObject welcome = fake.next();
      assertEquals("welcome", welcome.getString("op"));
      assertTrue(ControlAuth.verifyWelcome(job.secret, DataAuth.bytes32(welcome.getString("proof")), fake.workerNonce,
          fake.nonce, job.slot), "the worker holds the secret too");
      fake.send(fake.ready());
      JobProcess ready = job.ready.future().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
      assertEquals(4242, ready.port);
      assertEquals(TOKEN, ready.token);
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
    assertFalse(job.ready.future().isComplete());
    assertEquals(JobProcess.State.STARTING, job.state);
  }

  @Test
  void aHelloRecordedOnAnotherConnectionIsRefused() throws Exception {
    listen(10_000);
    try (FakeJob first = new FakeJob(); FakeJob second = new FakeJob()) {
      second.send(first.hello(job.secret, first.workerNonce));
      assertNull(second.next(), "a proof over another connection's challenge");
      first.send(first.hello(job.secret, first.workerNonce));
      assertEquals("welcome", first.next().getString("op"), "the process itself still gets in");
    }
  }

  @Test
  void aConnectionThatStallsIsClosed() throws Exception {
    listen(300);
    try (FakeJob fake = new FakeJob()) {
      assertNull(fake.next(), "closed at the deadline");
    }
    assertFalse(job.ready.future().isComplete());
  }
}
