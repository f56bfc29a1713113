package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.parl.demo.FakeNvidiaSmi;
import org.parl.monitor.MonitorHttp;

/** The command line of docs/contract.md §2: wrong usage exits 2, runtime failures exit 1, each with one sentence. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CliIT {

  private static final Duration QUICK = Duration.ofSeconds(60);

  private Path home;
  private Path smi4;

  @BeforeAll
  void setUp() throws IOException {
    home = Files.createTempDirectory("parl-cli-it");
    TestCluster.giveToken(home, "c".repeat(64)); // a worker looks for the token before its master
    smi4 = FakeNvidiaSmi.write(home.resolve("bin"), 4);
    // a host that holds a cluster token, as one does after 'bin/parl master' ran there or the file was copied
    Files.writeString(home.resolve("token"), "c11".repeat(22) + "\n");
    Files.setPosixFilePermissions(home.resolve("token"), PosixFilePermissions.fromString("rw-------"));
  }

  @AfterAll
  void killLeftovers() throws IOException {
    killDetached(home);
  }

  /** Kills the nodes that {@code --detach} started under {@code home}, by their pid files. */
  private static void killDetached(Path home) throws IOException {
    Path run = home.resolve("run");
    if (Files.isDirectory(run)) {
      try (Stream<Path> files = Files.list(run)) {
        for (Path f : files.toList()) {
          long pid = new JsonObject(Files.readString(f)).getLong("pid");
          ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
      }
    }
  }

  private Result run(String... args) {
    return run(home, args);
  }

  private static Result run(Path home, String... args) {
    try (ParlProcess p = ParlProcess.start(ParlProcess.env(home), args)) {
      int code = p.awaitExit(QUICK);
      return new Result(code, p.output());
    }
  }

  private record Result(int code, String output) {
    Result expect(int expectedCode, String fragment) {
      assertEquals(expectedCode, code, "exit code; output:\n" + output);
      assertTrue(output.contains(fragment), "expected '" + fragment + "' in:\n" + output);
      assertFalse(output.contains("\tat "), "no stack trace expected:\n" + output);
      return this;
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"master", "worker", "status", "stop", "demo"})
  void everyCommandHasHelp(String command) {
    run(command, "--help").expect(0, "Usage: parl " + command);
  }

  @Test
  void wrongUsageExits2WithOneLine() {
    run().expect(2, "name a command");
    run("fly").expect(2, "Unmatched argument");
    run("master", "--port", "99999").expect(2, "--port must be between 0 and 65535");
    run("master", "--port", "abc").expect(2, "Invalid value for option '--port'");
    run("master", "--gpus", "0").expect(2, "--gpus needs --gpu-cluster");
    run("master", "--gpu-cluster", "--gpus", "0,0").expect(2, "--gpus lists GPU 0 twice");
    run("master", "--gpu-cluster", "--gpus", "x").expect(2, "Invalid value for option '--gpus'");
    run("master", "--cpus", "0").expect(2, "--cpus must be at least 1");
    run("master", "--host", "0.0.0.0").expect(2, "not 0.0.0.0");
    run("master", "--host", "no-such-host.invalid").expect(2, "is not an address of this host");
    run("worker").expect(2, "Missing required option: '--address");
    run("worker", "--address", "nowhere").expect(2, "address must look like HOST:PORT");
    run("master", "--gpu-cluster", "--mixed").expect(2, "--gpu-cluster and --mixed exclude each other");
    run("status", "--address", "127.0.0.1:0").expect(2, "port in '127.0.0.1:0' must be between 1 and 65535");
    run("master", "--max-connections-per-address", "0")
        .expect(2, "--max-connections-per-address must be between 1 and 100000, not 0");
    run("master", "--code-cache-max-mb", "99999999").expect(2, "--code-cache-max-mb must be between 1 and 16777216, not 99999999");
    run("master", "--job-log-max-mb", "lots").expect(2, "Invalid value for option '--job-log-max-mb'");
    run("worker", "--address", "127.0.0.1:8010", "--max-waiting-per-client", "5")
        .expect(2, "--max-waiting-per-client is a cap of the master (its gateway or JobCenter): give it to 'parl master'");
  }

  /**
   * A cap given as a flag replaces the limits file's: the master's gateway refuses past it, in words,
   * and its monitor reports the cap and counts the refusal.
   */
  @Test
  void aLimitFlagTakesEffect() throws Exception {
    try (TestCluster cluster = TestCluster.start(0, "--cpus", "1", "--max-connections-per-address", "3")) {
      Matcher link = cluster.master.awaitLine("monitor: (https://[^/\\s]+)/login", TestCluster.START);
      MonitorHttp monitor = new MonitorHttp(link.group(1), cluster.token());
      String metrics = Await.until("the gateway publishes its figures", QUICK, () -> monitor.get("/metrics").body(),
          body -> body.contains("\nparl_gateway_connections_refused_total "));
      assertTrue(metrics.contains("\nparl_gateway_connections_refused_total 0\n"), metrics);
      assertTrue(metrics.contains("\nparl_gateway_connections_per_address_limit 3\n"), metrics);
      assertTrue(metrics.contains("\nparl_limit{name=\"gateway.maxConnectionsPerAddress\"} 3\n"), metrics);
      List<GatewayPeer> peers = new ArrayList<>();
      String refusal;
      try {
        refusal = GatewayPeer.openUntilRefused(cluster.address, peers, 10);
      } finally {
        for (GatewayPeer p : peers) {
          p.close();
        }
      }
      assertNotNull(refusal, "10 connections from one address were all accepted with a cap of 3");
      assertTrue(refusal.contains("and the cap is 3"), refusal);
      assertTrue(peers.size() <= 4, "refused only at connection " + peers.size());
      Await.until("the monitor counts the refusal", QUICK, () -> monitor.get("/metrics").body(),
          body -> body.contains("\nparl_gateway_connections_refused_total 1\n"));
    }
  }

  @Test
  void runtimeFailuresExit1WithOneSentence() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      String port = String.valueOf(taken.getLocalPort());
      run("master", "--port", port).expect(1, "port " + port + " on 127.0.0.1 is already in use");
    }
    int free;
    try (ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      free = s.getLocalPort();
    }
    run("worker", "--address", "127.0.0.1:" + free).expect(1, "no parl master answers at 127.0.0.1:" + free);
    Result status = run("status", "--address", "127.0.0.1:" + free)
        .expect(1, "parl: no parl master answers at 127.0.0.1:" + free + " (connection refused)");
    assertEquals(1, status.output().strip().lines().count(), "one sentence: " + status.output());
    run("master", "--port", "0", "--gpu-cluster", "--nvidia-smi", smi4.toString(), "--gpus", "1,7")
        .expect(1, "GPU 7 does not exist on this host");
    run("master", "--port", "0", "--gpu-cluster", "--nvidia-smi", home.resolve("missing-smi").toString())
        .expect(1, "this host's GPUs cannot be listed");
    run("status").expect(1, "no parl cluster runs on this host");
    run("master", "--port", "0", "--hazelcast-config", home.resolve("missing.xml").toString())
        .expect(1, "the Hazelcast settings file " + home.resolve("missing.xml") + " does not exist");
  }

  @Test
  void somethingThatIsNotAMasterIsReportedAsSuch() throws Exception {
    try (ServerSocket fake = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread t = new Thread(() -> {
        try (Socket s = fake.accept()) {
          s.getOutputStream().write("HTTP/1.1 400 Bad Request\r\n\r\n".getBytes());
        } catch (IOException e) {
          // the test is over
        }
      });
      t.setDaemon(true);
      t.start();
      run("worker", "--address", "127.0.0.1:" + fake.getLocalPort()).expect(1, "does not answer like a parl master");
    }
  }

  @Test
  void aGpuWorkerIsRefusedByACpuCluster() throws Exception {
    try (TestCluster cpu = TestCluster.start(0, "--cpus", "1")) {
      try (ParlProcess w = ParlProcess.start(ParlProcess.env(cpu.home), "worker", "--address", cpu.address,
          "--gpus", "0", "--nvidia-smi", smi4.toString())) {
        assertEquals(1, w.awaitExit(QUICK));
        assertTrue(w.output().contains("this is a CPU cluster, so a worker cannot lend GPUs"), w.output());
      }
    }
  }

  @Test
  void detachedNodesAreListedByStatusAndStoppedByStop() throws Exception {
    Path own = Files.createTempDirectory("parl-cli-detached");
    try {
      detachedNodes(own);
    } finally {
      killDetached(own);
    }
  }

  /** Detached nodes under their own PARL_HOME, so that no other test sees them. */
  private void detachedNodes(Path own) throws Exception {
    // a PARL_HOME made by 'mkdir' under the usual umask: the first node command makes it private
    Files.setPosixFilePermissions(own, PosixFilePermissions.fromString("rwxr-xr-x"));
    Result master1 = run(own, "master", "--port", "0", "--cpus", "2", "--detach").expect(0, "running in the background as pid");
    assertEquals("rwx------", mode(own), "PARL_HOME tightened");
    assertTrue(master1.output().contains("made " + own + " private (rwxr-xr-x -> rwx------)"), master1.output());
    assertEquals("rw-------", mode(own.resolve("token")), "the token the master created");
    Result master2 = run(own, "master", "--port", "0", "--gpu-cluster", "--nvidia-smi", smi4.toString(), "--gpus", "0,1", "--detach")
        .expect(0, "parl master ready");
    String gpuAddress = master2.output().replaceAll("(?s).*address (\\S+),.*", "$1");
    run(own, "worker", "--address", gpuAddress, "--gpus", "2,3", "--nvidia-smi", smi4.toString(), "--detach")
        .expect(0, "parl worker");
    Result status = run(own, "status").expect(0, "CPU cluster  1 worker(s)  CPUs 0 used / 2 vacant");
    assertTrue(status.output().contains(gpuAddress + "  GPU cluster  2 worker(s)  CPUs 0 used / 0 vacant  GPUs 0 used / 4 vacant"),
        status.output());
    run(own, "status", "--address", gpuAddress).expect(0, "GPU cluster  2 worker(s)");

    List<ProcessHandle> started = new ArrayList<>();
    try (Stream<Path> files = Files.list(own.resolve("run"))) {
      for (Path f : files.toList()) {
        ProcessHandle h = ProcessHandle.of(new JsonObject(Files.readString(f)).getLong("pid")).orElseThrow();
        started.add(h);
        started.addAll(h.descendants().toList());
      }
    }
    assertTrue(started.size() >= 3 + 2, "nodes and their warm job processes: " + started.size());
    // the detached nodes' logs (a master's holds its login link) and the job logs are the owner's only
    try (Stream<Path> files = Stream.concat(Files.list(own.resolve("logs")), Files.walk(own.resolve("workers")))) {
      List<Path> logs = files.filter(f -> f.toString().endsWith(".log")).toList();
      assertTrue(logs.stream().anyMatch(f -> f.startsWith(own.resolve("workers"))), "job logs: " + logs);
      assertTrue(logs.size() >= 3 + 2, "node logs and job logs: " + logs);
      for (Path f : logs) {
        assertEquals("rw-------", mode(f), f.toString());
      }
    }
    run(own, "stop").expect(0, "stopped master");
    for (ProcessHandle h : started) {
      String what = "process " + h.pid() + " " + h.info().commandLine().orElse("") + " ending";
      Await.until(what, Duration.ofSeconds(10), () -> !h.isAlive());
    }
    run(own, "stop").expect(0, "nothing to stop");
    run(own, "status").expect(1, "no parl cluster runs on this host");
    assertTrue(master1.output().contains("log: "), master1.output());
    assertTrue(master1.output().matches("(?s).*parl master ready: address \\S+, .*; monitor: https://\\S+/login\\?code=\\S+ "
        + "\\(one-time login link\\).*"), "--detach repeats the ready line, the monitor's login link with it:\n"
        + master1.output());
  }

  private static String mode(Path p) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  @Test
  void theDemoRunsCpuAndGpuActors() {
    Result demo = run("demo", "--nvidia-smi", home.resolve("no-nvidia-smi").toString());
    demo.expect(0, "demo finished");
    // what it says it starts is what its help says
    assertTrue(demo.output().contains("Starting a mixed cluster"), demo.output());
    Result help = run("demo", "--help");
    help.expect(0, "Start a small mixed cluster in this process");
    assertTrue(demo.output().contains("FAKE 4-GPU inventory"), demo.output());
    assertTrue(demo.output().matches(
        "(?s).*1-GPU actor job-\\d+ got GPU\\(s\\) \\[(\\d)\\] .* it sees pid \\d+, CUDA_VISIBLE_DEVICES=\"\\1\".*"),
        demo.output());
    assertTrue(demo.output().matches("(?s).*2-GPU actor job-\\d+ got GPU\\(s\\) \\[(\\d), (\\d)\\] .*CUDA_VISIBLE_DEVICES=\"\\1,\\2\".*"),
        demo.output());
    assertTrue(demo.output().contains("CUDA_VISIBLE_DEVICES=\"\""), "a CPU actor sees no GPUs:\n" + demo.output());
  }
}
