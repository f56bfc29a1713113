package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.ActorLostException;
import org.parl.internal.wire.IntegrityException;
import org.parl.it.hosts.Host;
import org.parl.it.hosts.NetnsHosts;
import org.parl.it.hosts.TcpSocket;

/**
 * {@link DataRelayIT} between hosts (README, "Security"; issue 20): on a test bed of three hosts
 * (network namespaces on a private bridge), the master and its local worker on A (10.77.0.2), the
 * user program on B (10.77.0.3, {@link RelayedClient}) whose JVM sends its plain sockets through a
 * SOCKS relay on C (10.77.0.4, {@link RelayProgram}) by {@code -DsocksProxyHost}. Only the data
 * connection to the job is relayed (the gateway connection, made by Vert.x, goes straight to A),
 * and it really crosses hosts: the relay sees it come from B and goes on to the job's data port on
 * A, where the job's only client is the relay. The relay lets the handshake and a real call
 * through, then injects a call forged in clear, replays a call the client really made, or alters
 * one byte of the client's next call: each time the job logs one line that a frame failed its
 * integrity check and closes the connection (the relay sees the job's side end first), the
 * client's actor is lost ({@link ActorLostException}), and the forged, replayed or altered call's
 * side effect (a marker file on A) never happens.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RelayIT {

  private static final Duration START = TestCluster.START;
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final Path HOMES = Path.of("target", "relay-homes").toAbsolutePath();
  private static final String LOST = ActorLostException.class.getName();

  private NetnsHosts bed;
  private Host a;
  private Host b;
  private Host c;
  private String address;
  private ParlProcess relay;
  private int relayPort;
  private ParlProcess client;

  /** A link of the relay, carrying the data connection of a client's actor on B to its job on A. */
  private record Link(int index, String line, long jobPid) {}

  /** How the job refused: the relay's line that the job ended the connection, and the job's log line. */
  private record Refusal(String end, String log) {}

  @BeforeAll
  void start() throws Exception {
    deleteTree(HOMES); // what an interrupted run left
    bed = NetnsHosts.create(3);
    a = bed.host(0);
    b = bed.host(1);
    c = bed.host(2);
    ParlProcess master = a.parl(ParlProcess.env(home(a)), "master", "--port", "0", "--host", a.address, "--cpus", "2");
    address = master.awaitLine("parl master ready: address (\\S+), CPU cluster, local worker w-\\w+", START).group(1);
    assertTrue(address.startsWith(a.address + ":"), "the master advertises its --host: " + address);
    // what a user does on another host: copy the master's token file there
    Files.copy(home(a).resolve("token"), home(b).resolve("token"), StandardCopyOption.REPLACE_EXISTING);
    Files.setPosixFilePermissions(home(b).resolve("token"), PosixFilePermissions.fromString("rw-------"));

    relay = c.talkingJava(Map.of(), List.of(), UserClasspath.of(), RelayProgram.class, c.address);
    Matcher r = relay.awaitLine("^RELAY (\\S+):(\\d+)$", START);
    assertEquals(c.address, r.group(1), "the relay listens on C");
    relayPort = Integer.parseInt(r.group(2));
    client = b.talkingJava(ParlProcess.env(home(b)),
        List.of("-DsocksProxyHost=" + c.address, "-DsocksProxyPort=" + relayPort), UserClasspath.of(), RelayedClient.class, address);
    client.awaitLine("^CONNECTED$", START);
  }

  @AfterAll
  void stop() throws IOException {
    if (bed != null) {
      bed.close(); // stops the master, its jobs, the relay and the client by pid, then deletes the namespaces
      assertEquals(List.of(), bed.remains(), "namespaces or links left behind");
    }
    deleteTree(HOMES);
  }

  @Test
  void aCallForgedInClearAfterTheHandshakeIsRefusedAcrossHostsAndNeverRuns() throws Exception {
    int failuresBefore = integrityLines().size();
    Link link = relayedActor("forged");
    Path marker = marker("forged");
    relay.send("forge " + link.index() + " " + marker);
    String forged = relay.awaitLine("^FORGED " + link.index() + " .*", WAIT).group();
    Refusal refused = assertRefused(link, failuresBefore);
    String lost = assertLost("forged", "value");
    assertFalse(Files.exists(marker), "the forged call never ran");
    report("forged", link, forged, refused, lost);
  }

  @Test
  void aReplayedCallIsRefusedAcrossHostsAndDoesNotRunAgain() throws Exception {
    int failuresBefore = integrityLines().size();
    Link link = relayedActor("replayed");
    Path marker = marker("replayed");
    relay.send("mark " + link.index());
    relay.awaitLine("^MARKED " + link.index() + "$", WAIT);
    client.send("mark replayed " + marker);
    client.awaitLine("^RESULT replayed mark ok marked$", WAIT);
    assertTrue(Files.exists(marker), "the client's own call ran");
    Files.delete(marker);
    relay.send("replay " + link.index());
    String replayed = relay.awaitLine("^REPLAYED " + link.index() + " .*", WAIT).group();
    Refusal refused = assertRefused(link, failuresBefore);
    String lost = assertLost("replayed", "value");
    assertFalse(Files.exists(marker), "the replayed call did not run again");
    report("replayed", link, replayed, refused, lost);
  }

  @Test
  void anAlteredCallIsRefusedAcrossHostsAndNeverRuns() throws Exception {
    int failuresBefore = integrityLines().size();
    Link link = relayedActor("altered");
    Path marker = marker("altered");
    relay.send("alter " + link.index());
    String altering = relay.awaitLine("^ALTERING " + link.index() + "$", WAIT).group();
    client.send("mark altered " + marker);
    String lost = assertLost("altered", "mark");
    Refusal refused = assertRefused(link, failuresBefore);
    assertFalse(Files.exists(marker), "the altered call never ran");
    report("altered", link, altering, refused, lost);
  }

  /**
   * The client on B creates an actor (on A's local worker) and calls it through the relay on C;
   * checks that exactly this data connection was relayed, from B to the job's data port on A, and
   * that the job's and the client's sockets say the same.
   */
  private Link relayedActor(String tag) throws Exception {
    int index = count(relay.output(), "^LINK ");
    client.send("create " + tag);
    Matcher actor = client.awaitLine("^ACTOR " + tag + " job=\\S+ worker=\\S+ pid=(\\d+) added=1$", START);
    long jobPid = Long.parseLong(actor.group(1));
    Matcher m = relay.awaitLine("^LINK " + index + " from (\\S+):(\\d+) to (\\S+):(\\d+)$", WAIT);
    assertEquals(index + 1, count(relay.output(), "^LINK "), "one relayed connection per actor, none for the gateway");
    assertEquals(b.address, m.group(1), "the relay's client is on B: " + m.group());
    assertEquals(a.address, m.group(3), "the relay connects to the job on A: " + m.group());
    int gatewayPort = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    assertNotEquals(gatewayPort, Integer.parseInt(m.group(4)), "the gateway connection is not relayed: " + m.group());

    int clientPort = Integer.parseInt(m.group(2));
    int dataPort = Integer.parseInt(m.group(4));
    List<TcpSocket> onB = b.connections().stream().filter(s -> s.pid() == client.pid()).toList();
    assertTrue(onB.stream().anyMatch(s -> s.localPort() == clientPort && s.peerHost().equals(c.address) && s.peerPort() == relayPort),
        "the client on B is connected to the relay on C: " + onB);
    assertFalse(onB.stream().anyMatch(s -> s.peerHost().equals(a.address) && s.peerPort() == dataPort),
        "the client is not connected straight to the job: " + onB);
    List<TcpSocket> onA = a.connections().stream().filter(s -> s.pid() == jobPid && s.localPort() == dataPort).toList();
    assertEquals(1, onA.size(), "the job (pid " + jobPid + ") on A has one data connection: " + a.connections());
    assertEquals(c.address, onA.get(0).peerHost(), "the job's client is the relay on C: " + onA);
    return new Link(index, m.group(), jobPid);
  }

  /**
   * The job refused what the relay did: it logged one line more that a frame failed its integrity
   * check, and closed the connection (the relay saw the job's side end first).
   */
  private Refusal assertRefused(Link link, int failuresBefore) throws Exception {
    String end = relay.awaitLine("^END " + link.index() + ": the job ended the connection$", WAIT).group();
    Await.until("a job's log line about the failed check", WAIT, () -> integrityLines().size() > failuresBefore);
    List<String> lines = integrityLines();
    assertEquals(failuresBefore + 1, lines.size(), "one line per refused connection: " + lines);
    return new Refusal(end, lines.get(lines.size() - 1));
  }

  /** The client's {@code command} on the actor tagged {@code tag} failed: the actor is lost. Closes the actor. */
  private String assertLost(String tag, String command) {
    if (!command.equals("mark")) {
      client.send(command + " " + tag);
    }
    Matcher m = client.awaitLine("^RESULT " + tag + " " + command + " failed (\\S+) .*", WAIT);
    assertEquals(LOST, m.group(1), m.group());
    client.send("close " + tag);
    client.awaitLine("^CLOSED " + tag + "$", WAIT);
    return m.group();
  }

  /** Prints the lines that show what happened, from each host. */
  private static void report(String what, Link link, String relayLine, Refusal refused, String clientLine) {
    System.out.println("RelayIT " + what + ":\n  relay on C: " + link.line() + "\n  relay on C: " + relayLine
        + "\n  relay on C: " + refused.end() + "\n  job (pid " + link.jobPid() + ") on A: " + refused.log()
        + "\n  client on B: " + clientLine);
  }

  /** Lines in the logs of the jobs on A that say a frame failed its integrity check. */
  private List<String> integrityLines() throws IOException {
    List<String> found = new ArrayList<>();
    Path workers = home(a).resolve("workers");
    if (!Files.exists(workers)) {
      return found;
    }
    try (Stream<Path> files = Files.walk(workers)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".log")).sorted().toList()) {
        Files.readAllLines(f).stream().filter(l -> l.contains(IntegrityException.FAILED)).forEach(found::add);
      }
    }
    return found;
  }

  /** A fresh path on A's disk that the forged (or replayed, or altered) call would create. */
  private Path marker(String name) throws IOException {
    return Files.createDirectories(home(a).resolve("markers")).resolve(name + "-" + System.nanoTime());
  }

  /** The host's PARL_HOME, as if each host were its own machine. */
  private static Path home(Host h) throws IOException {
    return Files.createDirectories(HOMES.resolve(h.label));
  }

  private static int count(String text, String regex) {
    return (int) Pattern.compile(regex, Pattern.MULTILINE).matcher(text).results().count();
  }

  private static void deleteTree(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
