package org.parl.bench;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A user's program from its start: each sample is a fresh JVM ({@link ConnectProbe}, on the client
 * library's class path only, as {@code bin/parl classpath} gives it) so that class loading counts.
 * Reports the process start to the first answered call (the target), the process start to its exit
 * (the program closes its client and returns from {@code main}), and their parts: {@code Parl.connect},
 * the process start to connected, the first actor creation and first call. Where the checkout's
 * {@code bin/parl} is at hand, the same program is also started with {@code bin/parl run}, which maps
 * the client library's class-data archive (made by one unmeasured first run), alternating with the
 * plain {@code java} runs so that both see the same load.
 */
final class ConnectBenchmark {

  private static final Logger log = LoggerFactory.getLogger(ConnectBenchmark.class);
  private static final Pattern CONNECTED = Pattern.compile("parl bench probe connected");
  private static final Pattern RESULT = Pattern.compile(
      "parl bench probe: connectMs=([\\d.]+) createMs=([\\d.]+) firstCallMs=([\\d.]+)");
  private static final Pattern FAILED = Pattern.compile("parl bench probe failed: (.*)");
  private static final Pattern TCP_DONE = Pattern.compile("parl bench tcp probe done");
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private final BenchPlan plan;
  private final JavaCommand java;
  private final ChildProcesses children;
  private final Path dir;
  private final String address;
  private final Path tokenFile;
  private final JobPool pool;
  private final int warmJobs;
  private final Report report;
  private final TcpEcho tcp;

  /**
   * @param tcp the plain-TCP baseline: each probe is followed by a fresh JVM that makes one round trip to its server
   * @param tokenFile the cluster's token file, or null when the probes find the token as users do */
  ConnectBenchmark(BenchPlan plan, JavaCommand java, ChildProcesses children, Path dir, String address, Path tokenFile,
      JobPool pool, int warmJobs, Report report, TcpEcho tcp) {
    this.plan = plan;
    this.java = java;
    this.children = children;
    this.dir = dir;
    this.address = address;
    this.tokenFile = tokenFile;
    this.pool = pool;
    this.warmJobs = warmJobs;
    this.report = report;
    this.tcp = tcp;
  }

  void run() throws Exception {
    log.info("measuring Parl.connect in {} fresh JVMs", plan.probes());
    Samples connect = new Samples(plan.probes());
    Samples spawnToConnected = new Samples(plan.probes());
    Samples create = new Samples(plan.probes());
    Samples firstCall = new Samples(plan.probes());
    Samples startToFirstCall = new Samples(plan.probes());
    Samples startToExit = new Samples(plan.probes());
    Samples tcpProgram = new Samples(plan.probes());
    Samples runFirstCall = new Samples(plan.probes());
    Samples runExit = new Samples(plan.probes());
    List<String> probeArgs = tokenFile == null ? List.of(address) : List.of(address, tokenFile.toString());
    Optional<List<String>> launcher = launcher(probeArgs);
    for (int i = 0; i < plan.probes(); i++) {
      pool.awaitIdle(warmJobs);
      long[] times = probe("probe-" + i, java.clientProgram(ConnectProbe.class, probeArgs), Map.of());
      spawnToConnected.add(times[0]);
      startToFirstCall.add(times[1]);
      startToExit.add(times[2]);
      connect.add(times[3]);
      create.add(times[4]);
      firstCall.add(times[5]);
      if (launcher.isPresent()) {
        pool.awaitIdle(warmJobs);
        long[] run = probe("run-probe-" + i, launcher.get(), Map.of("PARL_HOME", launcherHome().toString()));
        runFirstCall.add(run[1]);
        runExit.add(run[2]);
      }
      tcpProgram.add(tcpProgram(i));
    }
    report.add(new Metric("program_first_call_p50_ms", "program start to first answered call (fresh JVM), p50",
        startToFirstCall.millis(50), "ms", "600 ms", Target.atMost(300, "<= 300 ms"),
        startToFirstCall.millis(50) / tcpProgram.millis(50)));
    report.add(new Metric("program_exit_p50_ms", "program start to exit (closes its client, returns), p50",
        startToExit.millis(50), "ms", "630-810 ms", Target.atMost(400, "<= 400 ms"),
        startToExit.millis(50) / tcpProgram.millis(50)));
    if (launcher.isPresent()) {
      report.add(new Metric("program_first_call_run_p50_ms", "the same with bin/parl run (class-data archive), p50",
          runFirstCall.millis(50), "ms", "600 ms", Target.atMost(300, "<= 300 ms"),
          runFirstCall.millis(50) / tcpProgram.millis(50)));
      report.add(new Metric("program_exit_run_p50_ms", "start to exit with bin/parl run, p50", runExit.millis(50),
          "ms", "630-810 ms", Target.atMost(400, "<= 400 ms"), runExit.millis(50) / tcpProgram.millis(50)));
    } else {
      report.note("no bin/parl run rows: bin/parl is not found under -Dparl.root, or its class-data archive was not made");
    }
    report.add(new Metric("tcp_program_p50_ms", "plain TCP baseline: fresh JVM start to its first echo, p50",
        tcpProgram.millis(50), "ms", null, null, null));
    report.add(new Metric("connect_p50_ms", "Parl.connect in a fresh JVM, p50", connect.millis(50), "ms", "20 ms",
        null, null));
    report.add(new Metric("connect_from_spawn_p50_ms", "fresh JVM: process start to connected, p50",
        spawnToConnected.millis(50), "ms", null, null, null));
    report.add(new Metric("fresh_first_create_p50_ms", "fresh JVM: first actor create, p50", create.millis(50), "ms",
        null, null, null));
    report.add(new Metric("fresh_first_call_p50_ms", "fresh JVM: first call, p50", firstCall.millis(50), "ms",
        null, null, null));
  }

  /**
   * One probe program: nanoseconds from its start to connected, to its first answer, to its exit, and
   * its own connect, create and first-call times.
   */
  private long[] probe(String name, List<String> command, Map<String, String> env) throws Exception {
    long t0 = System.nanoTime();
    ChildProcess p = children.add(ChildProcess.start(name, command, env, dir.resolve(name + ".log")));
    try {
      Optional<Matcher> connected = p.awaitLine(CONNECTED, 0, TIMEOUT);
      long t1 = System.nanoTime();
      Optional<Matcher> result = p.awaitLine(RESULT, 0, TIMEOUT);
      long t2 = System.nanoTime();
      if (connected.isEmpty() || result.isEmpty()) {
        String why = p.awaitLine(FAILED, 0, Duration.ZERO).map(m -> m.group(1)).orElse(p.tail(3));
        throw new IllegalStateException("a Parl.connect probe failed: " + why + " (log: " + p.log() + ")");
      }
      if (p.awaitExit(Duration.ofSeconds(20)) < 0) {
        throw new IllegalStateException("a Parl.connect probe did not exit within 20 s of its first call (log: "
            + p.log() + ")");
      }
      long t3 = System.nanoTime();
      return new long[] {t1 - t0, t2 - t0, t3 - t0, nanos(result.get().group(1)), nanos(result.get().group(2)),
          nanos(result.get().group(3))};
    } finally {
      children.stop(p);
    }
  }

  /** A private PARL_HOME for the {@code bin/parl run} probes' class-data archive (the token comes as an argument). */
  private Path launcherHome() {
    return dir.resolve("run-home");
  }

  /**
   * {@code bin/parl run -cp <bench jar> ConnectProbe ...}, after one unmeasured first run and the
   * archive it leaves being made; empty when there is no {@code bin/parl} or no archive came of it
   * (a token found only where users keep it is not in the private home: then no such rows either).
   */
  private Optional<List<String>> launcher(List<String> probeArgs) throws Exception {
    Path bin = Path.of(System.getProperty("parl.root", "."), "bin", "parl").toAbsolutePath().normalize();
    if (!Files.isExecutable(bin) || tokenFile == null) {
      return Optional.empty();
    }
    Path home = launcherHome();
    Files.createDirectories(home, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    List<String> cmd = new ArrayList<>(List.of(bin.toString(), "run", "-cp", java.ownJar(ConnectProbe.class),
        ConnectProbe.class.getName()));
    cmd.addAll(probeArgs);
    pool.awaitIdle(warmJobs);
    probe("run-probe-first", cmd, Map.of("PARL_HOME", home.toString()));
    Path cds = home.resolve("cds");
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      try (Stream<Path> files = Files.list(cds)) {
        if (files.anyMatch(f -> f.getFileName().toString().matches("client-\\d+\\.jsa"))) {
          return Optional.of(cmd);
        }
      } catch (NoSuchFileException e) {
        // not yet
      }
      Thread.sleep(200);
    }
    log.warn("bin/parl run made no class-data archive within {} s", TIMEOUT.toSeconds());
    return Optional.empty();
  }

  /** A fresh JVM's start to its first plain-TCP round trip (TcpProbe), in nanoseconds. */
  private long tcpProgram(int i) throws Exception {
    long t0 = System.nanoTime();
    ChildProcess p = children.add(ChildProcess.start("tcp-probe-" + i, java.program(TcpProbe.class,
        List.of(String.valueOf(tcp.port()))), Map.of(), dir.resolve("tcp-probe-" + i + ".log")));
    try {
      if (p.awaitLine(TCP_DONE, 0, TIMEOUT).isEmpty()) {
        throw new IllegalStateException("a plain-TCP probe failed: " + p.tail(3) + " (log: " + p.log() + ")");
      }
      return System.nanoTime() - t0;
    } finally {
      children.stop(p);
    }
  }

  private static long nanos(String millis) {
    return (long) (Double.parseDouble(millis) * 1_000_000);
  }
}
