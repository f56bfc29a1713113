package org.parl.bench;

import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.parl.bench.netns.NetnsBed;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rows across hosts (target: at most 1.3x a TCP echo of the same size): two network
 * namespaces on a private bridge stand for two hosts ({@link NetnsBed}). Host A (10.77.0.2) runs a
 * master whose local worker lends one CPU, and the plain-TCP echo server; host B (10.77.0.3) runs
 * the client program ({@link CrossHostProbe}), whose actor's job is therefore on another host
 * (no shared memory) and whose baseline is a TCP echo between the same two hosts. Where this
 * machine cannot make namespaces (they need root and iproute2), the rows are left out and a note
 * says why. Every process is stopped by pid and the namespaces are removed at the end.
 */
final class CrossHostBenchmark {

  private static final Logger log = LoggerFactory.getLogger(CrossHostBenchmark.class);
  private static final Pattern ROW = Pattern.compile("^" + Pattern.quote(CrossHostProbe.ROW) + "(.*)$");
  private static final Pattern END = Pattern.compile("^(" + Pattern.quote(CrossHostProbe.DONE) + "|"
      + Pattern.quote(CrossHostProbe.FAILED) + ".*)$");
  private static final Duration MEASURE = Duration.ofMinutes(10);

  private final boolean quick;
  private final JavaCommand java;
  private final ChildProcesses children;
  private final Path dir;
  private final Path token;
  private final Report report;

  /** @param quick whether the run uses the {@code --quick} plan, which the client on host B follows too */
  CrossHostBenchmark(boolean quick, JavaCommand java, ChildProcesses children, Path dir, Path token, Report report) {
    this.quick = quick;
    this.java = java;
    this.children = children;
    this.dir = dir;
    this.token = token;
    this.report = report;
  }

  void run() throws Exception {
    NetnsBed bed;
    try {
      bed = NetnsBed.create(2);
    } catch (NetnsBed.Unavailable e) {
      log.warn("rows across hosts left out: {}", e.getMessage());
      report.note("Rows across hosts: not measured: " + e.getMessage() + ".");
      return;
    }
    try (bed) {
      log.info("measuring across hosts: cluster and echo server on {} ({}), client on {} ({})", bed.address(0),
          bed.namespace(0), bed.address(1), bed.namespace(1));
      LocalCluster cluster = LocalCluster.startInside(bed, 0, 1, children, java, dir, token);
      EchoProcess echo = EchoProcess.start(children, "echo-cross-host",
          bed.inside(0, java.program(EchoServer.class, List.of(bed.address(0)))), dir.resolve("echo-cross-host.log"));
      try {
        String address = cluster.address();
        JobPool.watching(cluster.master.pid()).awaitIdle(1);
        measure(bed, address, echo.port());
      } finally {
        children.stop(echo.process());
        children.stop(cluster.master);
      }
    }
    report.note("Rows across hosts: client on one network namespace, master, job and echo server on another, joined "
        + "by a bridge on this machine; vs TCP is the plain TCP echo between the same two namespaces.");
  }

  private void measure(NetnsBed bed, String address, int echoPort) throws Exception {
    List<String> args = List.of(address, token.toString(), bed.address(0), String.valueOf(echoPort), String.valueOf(quick));
    ChildProcess probe = children.add(ChildProcess.start("probe-cross-host",
        bed.inside(1, java.clientProgram(CrossHostProbe.class, args)), Map.of(), dir.resolve("probe-cross-host.log")));
    try {
      Matcher end = probe.awaitLine(END, 0, MEASURE).orElseThrow(() -> new IllegalStateException(
          "the client on host B did not finish (" + probe.tail(3) + "); its log is " + probe.log()));
      if (!end.group(1).equals(CrossHostProbe.DONE)) {
        throw new IllegalStateException("the client on host B: " + end.group(1));
      }
      probe.matches(ROW).forEach(row -> report.add(Metric.of(new JsonObject(row.group(1)))));
    } finally {
      children.stop(probe);
    }
  }
}
