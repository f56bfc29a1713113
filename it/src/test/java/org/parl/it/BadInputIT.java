package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.security.SharedSecret;
import org.parl.internal.wire.DataAuth;
import org.parl.internal.wire.Frames;

/**
 * docs/contract.md §8 for what clients send: garbage on the master's gateway and on a job's data port gets a
 * clear error or a closed connection, the nodes keep running and the pool stays exact; a job's data
 * port serves only a client that proves it holds the job's secret (docs/contract.md §9).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputIT {

  private TestCluster cluster;

  @BeforeAll
  void start() throws Exception {
    cluster = TestCluster.start(0, "--cpus", "2");
  }

  @AfterAll
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** A raw JSON-lines connection to the gateway, authenticated with the cluster's token by hand. */
  private final class Gateway implements AutoCloseable {
    final GatewayPeer peer;

    Gateway() throws Exception {
      peer = GatewayPeer.authenticated(cluster.address, ClusterToken.find(cluster.tokenFile()));
    }

    JsonObject ask(String line) throws Exception {
      peer.send(line);
      String answer = peer.readLine();
      assertNotNull(answer, "the gateway closed the connection after: " + line);
      return new JsonObject(answer);
    }

    @Override
    public void close() throws Exception {
      peer.close();
    }
  }

  /** The kind of a gateway error answer, after checking that it is one. */
  private static String errorKind(String sent, JsonObject answer) {
    assertEquals("Failed", answer.getString("type"), sent + " -> " + answer);
    assertFalse(answer.getString("message", "").isBlank(), sent + " -> " + answer);
    return answer.getString("kind");
  }

  @Test
  void garbageOnTheGatewayGetsErrorsAndChangesNothing() throws Exception {
    JsonObject before = cluster.member().snapshot();
    try (Gateway g = new Gateway()) {
      for (String bad : List.of("not json", "[1,2,3]", "{\"type\":\"Create\",\"id\":1}", "{\"type\":\"ClientHello\"}",
          "{\"id\":2}", "{\"type\":\"PirateHello\",\"id\":3}", "{\"type\":\"ClientHello\",\"id\":-4}",
          "{\"type\":\"ClientHello\",\"id\":\"6\"}")) {
        assertEquals("INVALID", errorKind(bad, g.ask(bad)), bad);
      }
      assertEquals("Done", g.ask("{\"type\":\"Ping\",\"id\":5}").getString("type"),
          "a ping is answered before the hello: a resume's hello may wait for a new active JobCenter");
      JsonObject welcome = g.ask("{\"type\":\"ClientHello\",\"id\":5}");
      assertEquals("Welcome", welcome.getString("type"), welcome.encode());
      assertNotNull(welcome.getString("clientId"));
      for (String bad : List.of("{\"type\":\"Fly\",\"id\":6}",
          "{\"type\":\"Create\",\"id\":7,\"resources\":{\"cpus\":\"many\"},\"timeoutMs\":10}",
          "{\"type\":\"Create\",\"id\":8,\"resources\":{\"cpus\":1}}",
          "{\"type\":\"Create\",\"id\":9,\"resources\":{\"cpus\":-3},\"timeoutMs\":10}",
          "{\"type\":\"Create\",\"id\":10,\"resources\":{\"gpus\":2},\"timeoutMs\":10}",
          "{\"type\":\"Create\",\"id\":15,\"resources\":{\"cpus\":1,\"gpuShare\":250},\"timeoutMs\":10}",
          "{\"type\":\"Kill\",\"id\":11,\"jobId\":\"job-77\"}",
          "{\"type\":\"ClientHello\",\"id\":12}",
          "{\"type\":\"Welcome\",\"id\":14}")) {
        JsonObject answer = g.ask(bad);
        assertTrue(List.of("INVALID", "MISMATCH", "NOT_FOUND").contains(errorKind(bad, answer)), bad + " -> " + answer);
      }
      assertEquals("Done", g.ask("{\"type\":\"Ping\",\"id\":13}").getString("type"), "the session still works");
    }
    try (Gateway g = new Gateway()) {
      byte[] huge = new byte[(2 << 20) + 1];
      huge[huge.length - 1] = '\n';
      g.peer.write(huge);
      String answer = g.peer.readLine();
      assertTrue(answer == null || answer.contains("longer than"), "an oversized line is refused: " + answer);
    } catch (java.io.IOException closed) {
      // the gateway closed the connection while the line was still being sent: refused too
    }
    JsonObject after = cluster.awaitSnapshot(s -> s.getJsonArray("jobs").isEmpty(), Duration.ofSeconds(10));
    assertEquals(before.getJsonArray("workers"), after.getJsonArray("workers"), "the pool is unchanged");
    try (Gateway g = new Gateway()) {
      assertEquals("Status", g.ask("{\"type\":\"StatusHello\",\"id\":1}").getString("type"), "the gateway still answers");
    }
  }

  @Test
  void aJobServesOnlyAClientThatProvesItsSecret() throws Exception {
    try (RawJob job = RawJob.create(cluster.address, ClusterToken.of(cluster.token(), "test"))) {
      try (Socket s = job.connect(false)) {
        String refusal = RawJob.message(RawJob.hello(s, SharedSecret.random(), job.nonce, DataAuth.NO_FINGERPRINT));
        assertTrue(refusal.startsWith(DataAuth.REFUSED), refusal);
        assertEquals(-1, s.getInputStream().read(), "one ERROR, then the connection closes");
      }
      try (Socket s = job.connect(false)) {
        DataInputStream in = new DataInputStream(s.getInputStream());
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        out.writeInt(Integer.MAX_VALUE);
        out.flush();
        assertTrue(RawJob.message(Frames.read(in)).contains("over the limit"), "a frame of absurd length is refused");
        assertEquals(-1, in.read(), "and the connection closes");
      }
      try (Socket s = job.connect(false)) {
        DataInputStream in = new DataInputStream(s.getInputStream());
        byte[] oldClient = new JsonObject().put("token", job.secret.hex()).put("protocol", 2).encode()
            .getBytes(StandardCharsets.UTF_8);
        Frames.write(s.getOutputStream(), Frames.HELLO, 1, oldClient);
        assertTrue(RawJob.message(Frames.read(in)).contains("use the same parl version"));
      }
      try (Socket s = job.connect(false)) {
        // the right secret is accepted after the bad attempts; then bad frames, sealed as a client seals them
        RawJob.Sealed c = job.open(s);
        DataInputStream in = c.in();
        Frames.write(c.out(), Frames.CALL, 2, Frames.named("nothing()", new byte[0]));
        JsonObject err = new JsonObject(new String(Frames.read(in).payload(), StandardCharsets.UTF_8));
        assertEquals("INVALID", err.getString("kind"));
        Frames.write(c.out(), Frames.BLOB, 3, Frames.named("../../etc/passwd", new byte[] {1}));
        err = new JsonObject(new String(Frames.read(in).payload(), StandardCharsets.UTF_8));
        assertTrue(err.getString("message").contains("not a content hash"), err.encode());
        Frames.write(c.out(), Frames.BLOB, 4,
            Frames.named("0".repeat(64), new byte[] {1, 2, 3}));
        err = new JsonObject(new String(Frames.read(in).payload(), StandardCharsets.UTF_8));
        assertTrue(err.getString("message").contains("hashes to"), err.encode());
        Frames.write(c.out(), (byte) 99, 5, new byte[0]);
        err = new JsonObject(new String(Frames.read(in).payload(), StandardCharsets.UTF_8));
        assertTrue(err.getString("message").contains("unknown frame type"), err.encode());
      }
    }
    cluster.awaitIdle();
  }

  /**
   * docs/contract.md §8: a silent connection and headers announcing 1 GiB, opened before the client connects,
   * neither hold the client up nor make the job allocate what they announce.
   */
  @Test
  void idleAndGreedyConnectionsNeitherBlockNorGrowTheJob() throws Exception {
    try (RawJob job = RawJob.create(cluster.address, ClusterToken.of(cluster.token(), "test"))) {
      long before = job.residentKb();
      List<Socket> bad = new ArrayList<>();
      try {
        bad.add(job.connect(false)); // connects and says nothing
        for (int i = 0; i < 3; i++) {
          Socket s = job.connect(false);
          bad.add(s);
          // one write: a job that refuses the header at its length closes before a later write would land
          DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
          out.writeInt((1 << 30) + 9);
          out.writeByte(Frames.HELLO);
          out.writeLong(1);
          out.flush();
        }
        long t0 = System.nanoTime();
        try (Socket s = job.connect(false)) {
          RawJob.Sealed c = job.open(s);
          long ms = (System.nanoTime() - t0) / 1_000_000;
          assertTrue(ms < DataAuth.DEADLINE_MS / 2, "the client was held up for " + ms + " ms");
          Frames.write(c.out(), Frames.CALL, 2, Frames.named("nothing()", new byte[0]));
          Frames.Frame answer = Frames.read(c.in());
          assertTrue(RawJob.message(answer).contains("no actor"), "a call is answered on that same job");
          long grown = job.residentKb() - before;
          assertTrue(grown < 128 * 1024, "the job grew by " + grown + " KiB");
        }
      } finally {
        for (Socket s : bad) {
          s.close();
        }
      }
    }
    cluster.awaitIdle();
  }
}
