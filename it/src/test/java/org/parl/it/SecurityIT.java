package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.AuthenticationException;
import org.parl.ConnectOptions;
import org.parl.Parl;
import org.parl.ParlClient;
import org.parl.cluster.Addresses;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.gateway.ClientHandshake;
import org.parl.internal.wire.gateway.GatewayCodec;
import org.parl.internal.wire.gateway.GatewayReply;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;

/**
 * docs/contract.md §9 at the master's gateway: every client and command needs the cluster token, and a peer
 * without it gets one refusal and learns nothing (no cluster name, no address, no actor, no code
 * run), whatever it sends, however much, or if it sends nothing at all.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SecurityIT {

  private static final Duration QUICK = Duration.ofSeconds(60);

  private TestCluster cluster;
  /** A host that never got the token: an empty PARL_HOME. */
  private Path noToken;
  /** A host whose token file holds another cluster's token. */
  private Path wrongToken;
  private List<String> secrets;

  @BeforeAll
  void start() throws Exception {
    cluster = TestCluster.start(0, "--cpus", "1");
    noToken = Files.createTempDirectory("parl-no-token");
    wrongToken = Files.createTempDirectory("parl-wrong-token");
    Files.writeString(wrongToken.resolve("token"), "0badc0de".repeat(8) + "\n");
    Files.setPosixFilePermissions(wrongToken.resolve("token"), PosixFilePermissions.fromString("rw-------"));
    var info = cluster.member().info();
    String hazelcastPort = info.hazelcast().substring(info.hazelcast().lastIndexOf(':') + 1);
    // what a stranger must never learn: the cluster's name and any address or port of its members
    secrets = List.of(info.clusterName(), info.hazelcast(), ":" + hazelcastPort, "127.0.0.1", info.monitorUrl());
  }

  @AfterAll
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static void assertOneSentence(ParlProcess p, String... fragments) {
    assertEquals(1, p.awaitExit(QUICK), p.output());
    for (String f : fragments) {
      assertTrue(p.output().contains(f), "expected '" + f + "' in:\n" + p.output());
    }
    assertFalse(p.output().contains("\tat "), "no stack trace:\n" + p.output());
  }

  @Test
  void aClientNeedsTheClustersToken() throws Exception {
    Path missing = noToken.resolve("token");
    AuthenticationException none = assertThrows(AuthenticationException.class,
        () -> Parl.connect(new ConnectOptions(cluster.address).setTokenFile(missing)));
    assertTrue(none.getMessage().contains(missing.toString()) && none.getMessage().contains("does not exist"), none.getMessage());

    Path wrongFile = wrongToken.resolve("token");
    AuthenticationException wrong = assertThrows(AuthenticationException.class,
        () -> Parl.connect(new ConnectOptions(cluster.address).setTokenFile(wrongFile)));
    assertTrue(wrong.getMessage().contains("refused the cluster token from --token-file " + wrongFile), wrong.getMessage());

    AuthenticationException value = assertThrows(AuthenticationException.class,
        () -> Parl.connect(new ConnectOptions(cluster.address).setToken("0badc0de".repeat(8))));
    assertTrue(value.getMessage().contains("ConnectOptions.setToken"), value.getMessage());

    // a user program on a host without the token, which finds it nowhere
    try (ParlProcess program = cluster.program(ParlProcess.env(noToken), ClientProgram.class, cluster.address, "1", "0")) {
      program.awaitExit(QUICK);
      assertTrue(program.output().contains("AuthenticationException: no cluster token found")
          && program.output().contains(noToken.resolve("token").toString()), program.output());
    }
    // the cluster's own hosts need nothing: the token is found in PARL_HOME (ClientProgram) or given (here)
    try (ParlClient ok = cluster.connect()) {
      assertEquals(6, ok.actor(Counter.class, CounterImpl.class).create().add(6));
    }
  }

  @Test
  void commandsNeedTheClustersToken() {
    for (String command : List.of("worker", "monitor")) {
      assertOneSentence(ParlProcess.start(ParlProcess.env(noToken), command, "--address", cluster.address),
          "no cluster token found", noToken.resolve("token").toString());
      assertOneSentence(ParlProcess.start(ParlProcess.env(wrongToken), command, "--address", cluster.address),
          "refused the cluster token from " + wrongToken.resolve("token"));
      assertOneSentence(ParlProcess.start(ParlProcess.env(cluster.home), command, "--address", cluster.address,
          "--token-file", wrongToken.resolve("token").toString()), "refused the cluster token from --token-file");
    }
    assertOneSentence(ParlProcess.start(ParlProcess.env(noToken), "status", "--address", cluster.address),
        "no cluster token found");
    assertOneSentence(ParlProcess.start(ParlProcess.env(wrongToken), "status", "--address", cluster.address),
        "refused the cluster token from " + wrongToken.resolve("token"));
    try (ParlProcess status = ParlProcess.start(ParlProcess.env(cluster.home), "status", "--address", cluster.address)) {
      assertEquals(0, status.awaitExit(QUICK), status.output());
      assertTrue(status.output().contains("CPU cluster"), status.output());
    }
  }

  @Test
  void plainTcpIsRefusedAtTheTlsLayer() throws Exception {
    String[] hp = cluster.address.split(":");
    try (Socket plain = new Socket(hp[0], Integer.parseInt(hp[1]))) {
      plain.setSoTimeout(30_000);
      plain.getOutputStream().write("{\"type\":\"WorkerHello\",\"id\":1}\n".getBytes(StandardCharsets.UTF_8));
      String got = new String(readAll(plain.getInputStream()), StandardCharsets.ISO_8859_1);
      assertFalse(got.contains("{"), "no JSON for a plain peer: " + got);
      assertLearnedNothing(got);
    }
  }

  @Test
  void aWrongProofGetsOneRefusalAndNothingElse() throws Exception {
    try (GatewayPeer stranger = new GatewayPeer(cluster.address)) {
      GatewayReply.Challenge challenge = (GatewayReply.Challenge) stranger.reply();
      ClientHandshake guess = new ClientHandshake(ClusterToken.of("0badc0de".repeat(8), "a guess"), stranger.fingerprint());
      stranger.send(new String(GatewayCodec.encode(guess.answer(challenge, 1)), StandardCharsets.UTF_8));
      assertRefused(stranger, "wrong proof");
    }
  }

  @Test
  void requestsBeforeAuthenticationAreRefusedAndChangeNothing() throws Exception {
    JsonObject before = cluster.member().snapshot();
    int clientsBefore = cluster.member().map(Addresses.CLIENTS_MAP).size();
    long jobProcessesBefore = jobProcesses();
    for (String early : List.of("{\"type\":\"ClientHello\",\"id\":1}",
        "{\"type\":\"Create\",\"id\":2,\"resources\":{\"cpus\":1},\"timeoutMs\":30000,\"actorClass\":\"x.Evil\"}",
        "{\"type\":\"WorkerHello\",\"id\":3}", "{\"type\":\"StatusHello\",\"id\":4}", "GET / HTTP/1.1")) {
      try (GatewayPeer stranger = new GatewayPeer(cluster.address)) {
        assertTrue(stranger.reply() instanceof GatewayReply.Challenge);
        stranger.send(early);
        assertRefused(stranger, "expected an Authenticate request first");
      }
    }
    JsonObject after = cluster.member().snapshot();
    assertEquals(before.getJsonArray("jobs"), after.getJsonArray("jobs"), "no job was created");
    assertEquals(before.getJsonArray("workers"), after.getJsonArray("workers"), "the pool is unchanged");
    assertEquals(clientsBefore, cluster.member().map(Addresses.CLIENTS_MAP).size(), "no client was registered");
    assertEquals(jobProcessesBefore, jobProcesses(), "no job process was started");
  }

  @Test
  void aLongLineBeforeAuthenticationIsRefused() throws Exception {
    try (GatewayPeer stranger = new GatewayPeer(cluster.address)) {
      stranger.reply();
      byte[] line = ("{\"type\":\"Authenticate\",\"id\":1,\"pad\":\"" + "x".repeat(5000) + "\"}\n").getBytes(StandardCharsets.UTF_8);
      stranger.write(line);
      assertRefused(stranger, "longer than 4096 bytes before authentication");
    }
  }

  @Test
  void aSilentPeerIsRefusedAtTheDeadline() throws Exception {
    try (GatewayPeer silent = new GatewayPeer(cluster.address)) {
      long t0 = System.nanoTime();
      silent.reply();
      assertRefused(silent, "no authentication within");
      long s = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
      assertTrue(s >= 6 && s <= 25, "closed after " + s + " s (the deadline is 8 s)");
    }
    String[] hp = cluster.address.split(":");
    try (Socket plain = new Socket(hp[0], Integer.parseInt(hp[1]))) {
      plain.setSoTimeout(30_000);
      long t0 = System.nanoTime();
      assertEquals(0, readAll(plain.getInputStream()).length, "a silent plain peer gets nothing");
      long s = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
      assertTrue(s <= 25, "a silent plain peer is closed at the TLS handshake's deadline, after " + s + " s");
    }
  }

  @Test
  void everyRefusalIsOneLogLineWithThePeersAddress() throws Exception {
    try (GatewayPeer stranger = new GatewayPeer(cluster.address)) {
      stranger.reply();
      stranger.send("{\"type\":\"ClientHello\",\"id\":1}");
      assertRefused(stranger, "Authenticate");
    }
    String log = Await.until("the master logging the refusal", Duration.ofSeconds(10), cluster.master::output,
        out -> out.contains("gateway refused 127.0.0.1:"));
    assertFalse(log.contains("\tat "), "no stack trace in the master's log");
    assertTrue(log.lines().filter(l -> l.contains("GatewayDoor - gateway refused"))
        .allMatch(l -> l.contains("gateway refused 127.0.0.1:")), log);
  }

  /** One refusal, saying why, that tells nothing about the cluster; then the connection ends. */
  private void assertRefused(GatewayPeer peer, String why) throws IOException {
    GatewayReply r = peer.reply();
    assertTrue(r instanceof GatewayReply.Failed f && f.kind() == ErrorKind.UNAUTHENTICATED
        && f.message().startsWith("authentication failed") && f.message().contains(why), String.valueOf(r));
    assertNull(peer.readLine(), "the connection ends after the refusal");
    assertLearnedNothing(peer.received());
  }

  private void assertLearnedNothing(String received) {
    for (String secret : secrets) {
      assertFalse(received.contains(secret), "a stranger learned '" + secret + "': " + received);
    }
  }

  /** Job processes of this cluster's master (its local worker's), warm ones included. */
  private long jobProcesses() {
    return ProcessHandle.of(cluster.master.pid()).map(p -> p.descendants()
        .filter(d -> d.info().commandLine().orElse("").contains("org.parl.job.JobMain")).count()).orElse(0L);
  }

  private static byte[] readAll(InputStream in) {
    List<Byte> got = new ArrayList<>();
    try {
      for (int b = in.read(); b >= 0; b = in.read()) {
        got.add((byte) b);
      }
    } catch (IOException reset) {
      // closed by the gateway: what came before is what the peer got
    }
    byte[] out = new byte[got.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = got.get(i);
    }
    return out;
  }
}
