package org.parl.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A user's program from its start: each sample is a fresh JVM ({@link ConnectProbe}, on the client
 * library's class path only, as {@code bin/parl classpath} gives it) so that class loading counts.
 * Reports the process start to the first answered call (the target), and its parts:
 * {@code Parl.connect}, the process start to connected, the first actor creation and first call.
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
    Samples tcpProgram = new Samples(plan.probes());
    for (int i = 0; i < plan.probes(); i++) {
      pool.awaitIdle(warmJobs);
      long t0 = System.nanoTime();
      ChildProcess p = children.add(ChildProcess.start("probe-" + i, java.clientProgram(ConnectProbe.class,
          tokenFile == null ? List.of(address) : List.of(address, tokenFile.toString())),
          Map.of(), dir.resolve("probe-" + i + ".log")));
      try {
        Optional<Matcher> connected = p.awaitLine(CONNECTED, 0, TIMEOUT);
        long t1 = System.nanoTime();
        Optional<Matcher> result = p.awaitLine(RESULT, 0, TIMEOUT);
        long t2 = System.nanoTime();
        if (connected.isEmpty() || result.isEmpty()) {
          String why = p.awaitLine(FAILED, 0, Duration.ZERO).map(m -> m.group(1)).orElse(p.tail(3));
          throw new IllegalStateException("a Parl.connect probe failed: " + why + " (log: " + p.log() + ")");
        }
        spawnToConnected.add(t1 - t0);
        startToFirstCall.add(t2 - t0);
        connect.add(nanos(result.get().group(1)));
        create.add(nanos(result.get().group(2)));
        firstCall.add(nanos(result.get().group(3)));
        p.awaitExit(Duration.ofSeconds(20));
      } finally {
        children.stop(p);
      }
      tcpProgram.add(tcpProgram(i));
    }
    report.add(new Metric("program_first_call_p50_ms", "program start to first answered call (fresh JVM), p50",
        startToFirstCall.millis(50), "ms", "600 ms", Target.atMost(300, "<= 300 ms"),
        startToFirstCall.millis(50) / tcpProgram.millis(50)));
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
