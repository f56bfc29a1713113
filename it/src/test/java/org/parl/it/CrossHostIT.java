package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.demo.FakeNvidiaSmi;
import org.parl.internal.wire.SharedArea;
import org.parl.it.hosts.Host;
import org.parl.it.hosts.NetnsHosts;
import org.parl.it.hosts.TcpSocket;
import org.parl.node.NodeJvm;

/**
 * A GPU cluster over three hosts (network namespaces, each node with its own PARL_HOME): the
 * master with a 2-GPU local worker on A, a 2-GPU worker on B, the user program on C. (Figures
 * across hosts are the benchmark's: {@code bin/parl bench --cross-host}.)
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CrossHostIT {

  private static final Duration START = TestCluster.START;
  private static final Pattern ACTOR = Pattern.compile("ACTOR job=(\\S+) worker=(\\S+) gpus=(\\S+) cvd=(\\S+) pid=(\\d+) sum=(\\d+)");
  private static final String LOOPBACK = "127.0.0.1";
  private static final Pattern GROUP_ACTOR = Pattern.compile(
      "ACTOR i=(\\d+) job=(\\S+) worker=(\\S+) gpus=(\\S+) cvd=(\\S+) pid=(\\d+) addresses=(\\S*)");
  /** JobCenter.WORKERS_ARRIVING_NANOS: in its first seconds a new JobCenter queues what no worker holds yet. */
  private static final Duration WORKERS_ARRIVING = Duration.ofSeconds(3);
  private static final Path HOMES = Path.of("target", "crosshost-homes").toAbsolutePath();

  private NetnsHosts bed;
  private Host a;
  private Host b;
  private Host c;
  private ParlProcess master;
  private ParlProcess worker;
  private String address;
  private String workerA;
  private String workerB;
  /** When the test saw the master ready: its JobCenter had started. */
  private long masterReadyNanos;

  @BeforeAll
  void start() throws Exception {
    Files.deleteIfExists(Path.of("target", "it-logs", "crosshost-listeners.txt"));
    deleteTree(HOMES); // what an interrupted run left
    bed = NetnsHosts.create(3);
    a = bed.host(0);
    b = bed.host(1);
    c = bed.host(2);
    Path homeA = home(a);
    master = a.parl(ParlProcess.env(homeA), "master", "--port", "0", "--host", a.address, "--gpu-cluster",
        "--nvidia-smi", FakeNvidiaSmi.write(homeA.resolve("bin"), 2).toString());
    Matcher m = master.awaitLine("parl master ready: address (\\S+), GPU cluster, local worker (w-\\w+)", START);
    masterReadyNanos = System.nanoTime();
    address = m.group(1);
    workerA = m.group(2);
    assertTrue(address.startsWith(a.address + ":"), "the master advertises its --host: " + address);
    // what a user does to add a host: copy the master's token file there
    copyToken(homeA, home(b));
    copyToken(homeA, home(c));
    Path homeB = home(b);
    String token = Files.readString(homeA.resolve("token")).strip(); // copied to the other hosts, as users do
    TestCluster.giveToken(homeB, token);
    TestCluster.giveToken(home(c), token);
    worker = b.parl(ParlProcess.env(homeB), "worker", "--address", address, "--host", b.address,
        "--nvidia-smi", FakeNvidiaSmi.write(homeB.resolve("bin"), 2).toString());
    workerB = worker.awaitLine("parl worker (w-\\w+) ready", START).group(1);
  }

  @AfterAll
  void stop() throws IOException {
    if (bed != null) {
      bed.close();
      assertEquals(List.of(), bed.remains(), "namespaces or links left behind");
    }
    deleteTree(HOMES);
  }

  private static void deleteTree(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  @Test
  void actorsOnBothHostsSeeTheirGpusAndEchoAcrossHosts() throws Exception {
    ParlProcess client = c.java(ParlProcess.env(home(c)), UserClasspath.of(), CrossHostClient.class, address, "4");
    client.awaitLine("^READY$", START);
    Map<Long, String> roles = new HashMap<>(Map.of(master.pid(), "master", worker.pid(), "worker", client.pid(), "client"));
    Map<String, Set<String>> gpusByWorker = new HashMap<>();
    Map<Long, Host> jobHosts = new HashMap<>();
    Matcher m = ACTOR.matcher(client.output());
    while (m.find()) {
      assertEquals(m.group(3), m.group(4), "CUDA_VISIBLE_DEVICES is exactly the allocated GPU of job " + m.group(1));
      assertEquals("5", m.group(6), "calls answered by job " + m.group(1));
      assertTrue(gpusByWorker.computeIfAbsent(m.group(2), w -> new TreeSet<>()).add(m.group(3)), "GPU given twice: " + m.group());
      long pid = Long.parseLong(m.group(5));
      roles.put(pid, "job " + m.group(1));
      jobHosts.put(pid, m.group(2).equals(workerB) ? b : a);
    }
    assertEquals(Map.of(workerA, Set.of("0", "1"), workerB, Set.of("0", "1")), gpusByWorker,
        "4 one-GPU actors fill both workers; output:\n" + client.output());
    assertEquals(4, count(client.output(), "ECHO job=\\S+ floats=2097152 intact=true"),
        "every 8 MiB float[] came back intact; output:\n" + client.output());

    checkListeners("with 4 actors", roles);
    List<TcpSocket> clientLinks = c.connections().stream().filter(s -> s.pid() == client.pid()).toList();
    clientLinks.forEach(s -> assertTrue(Set.of(a.address, b.address).contains(s.peerHost()),
        "the client talks only to the cluster's hosts: " + s));
    assertTrue(clientLinks.stream().anyMatch(s -> (s.peerHost() + ":" + s.peerPort()).equals(address)),
        "the client is connected to the gateway at " + address + ": " + clientLinks);
    jobHosts.forEach((pid, host) -> checkDataPath(pid, host, clientLinks));

    int exit = terminate(client);
    assertTrue(client.output().contains("CLOSED"), "exit " + exit + ": " + client.output());
    awaitStatus("2 worker\\(s\\).*GPUs 0 used / 4 vacant.*monitor https://" + Pattern.quote(a.address) + ":");
    checkListeners("after the client closed", roles);
  }

  /**
   * A STRICT_SPREAD group of a bundle per host with a worker (A and B), held by a program on C: each
   * bundle on its own worker, each actor created into a bundle running on that worker's host (the
   * addresses its network namespace has, its sockets), a larger STRICT_SPREAD group refused at once;
   * removing the group ends its actors and gives every unit back (seen by a member on C).
   */
  @Test
  void aStrictSpreadGroupHoldsABundleOnEachHost() throws Exception {
    Map<String, Host> hostOf = Map.of(workerA, a, workerB, b); // the hosts with a worker: one bundle each
    ParlProcess member = c.talkingJava(ParlProcess.env(home(c)), NodeJvm.HAZELCAST_FLAGS,
        List.of(ParlProcess.jar(), Path.of("target", "test-classes").toAbsolutePath()), CrossHostMember.class, address, c.address);
    ParlProcess client = c.talkingJava(ParlProcess.env(home(c)), List.of(), UserClasspath.of(), CrossHostGroupClient.class,
        address, String.valueOf(hostOf.size()));
    try {
      client.awaitLine("^READY$", START);
      Map<Integer, String> bundleWorkers = new HashMap<>();
      Map<Integer, String> bundleGpus = new HashMap<>();
      Matcher bm = Pattern.compile("BUNDLE i=(\\d+) worker=(\\S+) gpus=(\\S+)").matcher(client.output());
      while (bm.find()) {
        bundleWorkers.put(Integer.parseInt(bm.group(1)), bm.group(2));
        bundleGpus.put(Integer.parseInt(bm.group(1)), bm.group(3));
      }
      assertEquals(hostOf.keySet(), Set.copyOf(bundleWorkers.values()),
          "a bundle on each worker, so on each host; output:\n" + client.output());
      assertEquals(hostOf.size(), bundleWorkers.size(), client.output());

      List<TcpSocket> clientLinks = c.connections().stream().filter(s -> s.pid() == client.pid()).toList();
      Map<String, String> jobWorkers = new HashMap<>();
      Matcher m = GROUP_ACTOR.matcher(client.output());
      while (m.find()) {
        int i = Integer.parseInt(m.group(1));
        String where = "the actor of bundle " + i + " (" + m.group() + ")";
        assertEquals(bundleWorkers.get(i), m.group(3), where + " runs on its bundle's worker");
        assertEquals(bundleGpus.get(i), m.group(4), where + " holds its bundle's GPU");
        assertEquals(m.group(4), m.group(5), where + ": CUDA_VISIBLE_DEVICES is exactly its bundle's GPU");
        Host host = hostOf.get(m.group(3));
        assertEquals(host.address, m.group(7), where + " sees the network of " + host + " alone");
        long pid = Long.parseLong(m.group(6));
        checkDataPath(pid, host, clientLinks);
        for (Host other : List.of(a, b, c)) {
          if (other != host) {
            assertEquals(List.of(), other.connections().stream().filter(s -> s.pid() == pid).toList(),
                where + " has no connection inside " + other);
          }
        }
        jobWorkers.put(m.group(2), m.group(3));
      }
      assertEquals(hostOf.size(), jobWorkers.size(), "an actor in each bundle; output:\n" + client.output());

      member.awaitLine("^READY$", START);
      JsonObject held = awaitSnapshot(member, s -> s.getJsonArray("jobs").size() == jobWorkers.size());
      String groupId = client.awaitLine("^GROUP id=(\\S+) ", START).group(1);
      assertEquals(List.of(groupId), held.getJsonArray("groups").stream().map(g -> ((JsonObject) g).getString("groupId")).toList(),
          "the snapshot lists the group: " + held.encode());
      for (Object o : held.getJsonArray("workers")) {
        JsonObject w = (JsonObject) o;
        assertEquals(hostOf.get(w.getString("id")).address, w.getString("address"), w.encode());
        assertEquals(List.of(jobWorkers.entrySet().stream().filter(e -> e.getValue().equals(w.getString("id")))
            .findFirst().orElseThrow().getKey()), w.getJsonArray("jobs").getList(), "each worker runs its bundle's actor: " + w);
        assertEquals(1, w.getJsonArray("worker_used_gpus").size(), w.encode());
      }

      // a new JobCenter queues, in its first seconds, what its workers may yet hold; past them it refuses at once
      Await.until("the master's first " + WORKERS_ARRIVING.toSeconds() + " s past", START,
          () -> System.nanoTime() - masterReadyNanos > WORKERS_ARRIVING.toNanos());
      client.send("TOO_MANY");
      String refused = client.awaitLine("^(REFUSED|HELD) .*", START).group();
      assertTrue(refused.startsWith("REFUSED type=InvalidRequestException ") && refused.contains("STRICT_SPREAD"),
          "a STRICT_SPREAD group of more bundles than hosts: " + refused);
      Matcher took = Pattern.compile(" ms=(\\d+) ").matcher(refused);
      assertTrue(took.find() && Long.parseLong(took.group(1)) < 10_000, "refused at once, not after a wait: " + refused);
      assertEquals(jobWorkers.size(), awaitSnapshot(member, s -> true).getJsonArray("jobs").size(), "the group still holds");

      client.send("REMOVE");
      client.awaitLine("^DONE REMOVE$", START);
      for (int i = 0; i < hostOf.size(); i++) {
        String call = client.awaitLine("^CALL i=" + i + " .*", START).group();
        assertTrue(call.contains("type=ActorLostException") && call.contains("was removed"),
            "a call to the actor of a removed group's bundle: " + call);
      }
      JsonObject idle = awaitSnapshot(member, s -> s.getJsonArray("jobs").isEmpty());
      assertEquals(0, idle.getInteger("waiting"), idle.encode());
      assertEquals(List.of(), idle.getJsonArray("groups").getList(), "no group is left: " + idle.encode());
      for (Object o : idle.getJsonArray("workers")) {
        JsonObject w = (JsonObject) o;
        assertEquals(List.of(), w.getJsonArray("worker_used_gpus").getList(), "the pool is idle: " + w);
        assertEquals(0, w.getJsonObject("cpus").getInteger("used"), "the pool is idle: " + w);
      }

      client.send("CLOSE");
      assertEquals(0, client.awaitExit(Duration.ofSeconds(60)), client.output());
      assertTrue(client.output().contains("CLOSED"), client.output());
      member.send("QUIT");
      assertEquals(0, member.awaitExit(Duration.ofSeconds(60)), member.output());
    } finally {
      client.close();
      member.close();
    }
    awaitStatus("2 worker\\(s\\).*GPUs 0 used / 4 vacant.*0 client\\(s\\)");
  }

  /**
   * Asks the member on C for snapshots until {@code check} holds; each must have the pool's
   * invariant ok.
   */
  private static JsonObject awaitSnapshot(ParlProcess member, Predicate<JsonObject> check) throws Exception {
    return Await.until("the JobCenter's snapshot reaching the expected state", Duration.ofSeconds(30), () -> {
      int n = count(member.output(), "(?m)^SNAPSHOT \\d+ ") + 1; // every earlier one was answered
      member.send("SNAPSHOT");
      JsonObject s = new JsonObject(member.awaitLine("^SNAPSHOT " + n + " (.*)$", START).group(1));
      assertEquals("ok", s.getString("invariant"), "the pool's invariant: " + s.encode());
      return s;
    }, check);
  }

  @Test
  void aNodeOnAnotherHostMustNameItsOwnAddress() throws Exception {
    ParlProcess loopback = c.parl(ParlProcess.env(home(c)), "worker", "--address", address);
    assertEquals(2, loopback.awaitExit(START), loopback.output());
    assertTrue(loopback.output().contains("--host is 127.0.0.1, which the master at " + address)
        && loopback.output().contains("such as --host " + c.address), loopback.output());
    ParlProcess foreign = c.parl(ParlProcess.env(home(c)), "worker", "--address", address, "--host", b.address);
    assertEquals(2, foreign.awaitExit(START), foreign.output());
    assertTrue(foreign.output().contains("--host " + b.address + " is not an address of this host"), foreign.output());
  }

  /**
   * Every listener of every host binds that host's address, or loopback for a node's job-control
   * port; none binds a wildcard. Also writes what it found to {@code target/it-logs}.
   */
  private void checkListeners(String when, Map<Long, String> roles) throws IOException {
    StringBuilder out = new StringBuilder("listeners " + when + ":\n");
    Map<Host, List<TcpSocket>> found = new HashMap<>();
    for (Host h : List.of(a, b, c)) {
      found.put(h, h.listeners());
      out.append(h).append('\n');
      found.get(h).forEach(s -> out.append("  ").append(s).append("  ").append(role(s.pid(), roles)).append('\n'));
    }
    System.out.print(out);
    Path log = Files.createDirectories(Path.of("target", "it-logs")).resolve("crosshost-listeners.txt");
    Files.writeString(log, out, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    found.forEach((host, sockets) -> sockets.forEach(s -> {
      String role = role(s.pid(), roles);
      assertFalse(s.wildcard(), role + " on " + host + " listens on every interface: " + s);
      if (s.localHost().equals(LOOPBACK)) {
        assertTrue(role.equals("master") || role.equals("worker"), "only a node's job-control port may use loopback: " + s);
      } else {
        assertEquals(host.address, s.localHost(), role + " on " + host + " listens on another address: " + s);
      }
    }));
    int gatewayPort = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    assertTrue(found.get(a).stream().anyMatch(s -> s.localHost().equals(a.address) && s.localPort() == gatewayPort),
        "the gateway listens on " + address);
  }

  /**
   * The job's data socket: accepted on its host's address from the client on C, which is connected
   * straight to it; the job's only other connection is to its worker over loopback.
   */
  private void checkDataPath(long pid, Host host, List<TcpSocket> clientLinks) {
    List<TcpSocket> links = host.connections().stream().filter(s -> s.pid() == pid).toList();
    TcpSocket data = links.stream().filter(s -> s.peerHost().equals(c.address)).findFirst()
        .orElseThrow(() -> new AssertionError("job pid " + pid + " on " + host + " has no connection from C: " + links));
    assertEquals(host.address, data.localHost(), "job pid " + pid + " serves on its host's address");
    assertTrue(clientLinks.stream().anyMatch(s -> s.peerHost().equals(host.address) && s.peerPort() == data.localPort()),
        "the client is connected straight to job pid " + pid + " on " + host + ": " + clientLinks);
    links.stream().filter(s -> s != data).forEach(s -> assertEquals(LOOPBACK, s.peerHost(), "job pid " + pid + " link: " + s));
    assertEquals(List.of(), sharedAreas(pid), "job pid " + pid + " on another host than its client maps no shared memory");
  }

  /** The shared areas (parl's memory-mapped files) a process has mapped, from its /proc/PID/maps. */
  private static List<String> sharedAreas(long pid) {
    try (Stream<String> lines = Files.lines(Path.of("/proc", Long.toString(pid), "maps"))) {
      return lines.filter(l -> l.contains(SharedArea.PREFIX)).toList();
    } catch (IOException e) {
      throw new AssertionError("cannot read the maps of job pid " + pid, e);
    }
  }

  /** A pid's part: a node or client this test started, or a job process found by its command line. */
  private static String role(long pid, Map<Long, String> roles) {
    return roles.getOrDefault(pid, ProcessHandle.of(pid).flatMap(p -> p.info().commandLine())
        .filter(cmd -> cmd.contains("org.parl.job.JobMain")).map(cmd -> "job (warm)").orElse("unknown process"));
  }

  /**
   * SIGTERM by pid, then waits for the exit. Not {@link ParlProcess#stop}: the JDK's
   * {@code Process.destroy()} closes the pipe at once, losing what the program prints on its way out.
   */
  private static int terminate(ParlProcess p) {
    ProcessHandle.of(p.pid()).ifPresent(ProcessHandle::destroy);
    return p.awaitExit(Duration.ofSeconds(60));
  }

  /** Runs {@code parl status} on host C until its line matches (releases are asynchronous). */
  private void awaitStatus(String regex) throws Exception {
    Pattern expected = Pattern.compile(regex);
    Await.until("parl status on C matching /" + regex + "/", Duration.ofSeconds(60), () -> {
      try (ParlProcess status = c.parl(ParlProcess.env(home(c)), "status", "--address", address)) {
        status.awaitExit(START);
        return status.output();
      }
    }, out -> expected.matcher(out).find());
  }

  private static void copyToken(Path from, Path to) throws IOException {
    Files.copy(from.resolve("token"), to.resolve("token"), StandardCopyOption.REPLACE_EXISTING);
    Files.setPosixFilePermissions(to.resolve("token"), PosixFilePermissions.fromString("rw-------"));
  }

  /** The host's PARL_HOME, as if each host were its own machine. */
  private static Path home(Host h) throws IOException {
    return Files.createDirectories(HOMES.resolve(h.namespace));
  }

  private static int count(String text, String regex) {
    return (int) Pattern.compile(regex).matcher(text).results().count();
  }
}
