package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.demo.FakeNvidiaSmi;
import org.parl.it.hosts.Host;
import org.parl.it.hosts.NetnsHosts;

/**
 * docs/contract.md §7, network failures, on a test bed of three hosts (network namespaces): the master on A
 * (no local worker), a 2-GPU worker on B, the user program on C with two one-GPU actors on B, one of
 * them in a long call. One host's cable is pulled at a time. Each test prints its timings and appends
 * them to {@code target/it-logs/partition-timings.txt} (the README's "Failures" section gives their
 * medians). Time bounds are generous: the expected figures are ~8 s, ~6 s and ~6 s; a cut-off
 * worker's jobs are gone within 10 s, and before its client hears of their loss and before the master
 * releases its GPUs (the lease).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PartitionIT {

  private static final Duration START = TestCluster.START;
  private static final Path HOMES = Path.of("target", "partition-homes").toAbsolutePath();
  private static final Pattern ACTOR = Pattern.compile("ACTOR job=(\\S+) worker=(\\S+) gpus=(\\S+) pid=(\\d+)");
  private static final String LOST = "org.parl.ActorLostException";

  private NetnsHosts bed;
  private Host a;
  private Host b;
  private Host c;
  private final List<ParlProcess> started = new ArrayList<>();

  /** One cluster over the bed: master on A, worker on B, a client on C holding two actors on B. */
  private final class Cluster {
    final String name;
    ParlProcess master;
    String address;
    ParlProcess worker;
    String workerId;
    ParlProcess client;
    List<MatchResult> actors = new ArrayList<>();
    /** B's network namespace, as /proc names it. */
    String netnsB;

    Cluster(String name) {
      this.name = name;
    }

    Path home(Host h) throws IOException {
      return Files.createDirectories(HOMES.resolve(name).resolve(h.label));
    }

    Cluster start() throws Exception {
      master = track(a.parl(ParlProcess.env(home(a)), "master", "--port", "0", "--host", a.address, "--gpu-cluster",
          "--no-local-worker"));
      address = master.awaitLine("parl master ready: address (\\S+), GPU cluster, no local worker", START).group(1);
      for (Host h : List.of(b, c)) { // as a user copies the cluster's token to each host
        Files.copy(home(a).resolve("token"), home(h).resolve("token"), StandardCopyOption.REPLACE_EXISTING);
      }
      startWorker();
      netnsB = JobProcesses.netns(worker.pid()).orElseThrow();
      Path marker = home(c).resolve("call-running");
      client = track(c.java(ParlProcess.env(home(c)), UserClasspath.of(), PartitionClient.class, address, "2",
          marker.toString(), "60"));
      client.awaitLine("^CALLING$", START);
      ACTOR.matcher(client.output()).results().forEach(actors::add);
      assertEquals(2, actors.size(), client.output());
      actors.forEach(x -> assertEquals(workerId, x.group(2), "every actor runs on B: " + x.group()));
      Await.until("the call running on B", Duration.ofSeconds(60), () -> Files.exists(marker));
      return this;
    }

    void startWorker() throws Exception {
      worker = track(b.parl(ParlProcess.env(home(b)), "worker", "--address", address, "--host", b.address,
          "--nvidia-smi", FakeNvidiaSmi.write(home(b).resolve("bin"), 2).toString()));
      workerId = worker.awaitLine("parl worker (w-\\w+) ready", START).group(1);
    }

    /** Runs {@code parl status} on {@code h} until its line matches. */
    void awaitStatus(Host h, String regex) throws Exception {
      Pattern expected = Pattern.compile(regex);
      Await.until("parl status on " + h + " matching /" + regex + "/", Duration.ofSeconds(90), () -> {
        try (ParlProcess status = h.parl(ParlProcess.env(home(h)), "status", "--address", address)) {
          status.awaitExit(START);
          return status.output();
        }
      }, out -> expected.matcher(out).find());
    }

    /** A second user program on {@code h} creates two one-GPU actors, calls them and closes. */
    ParlProcess check(Host h, String waitSeconds) throws Exception {
      ParlProcess p = track(h.java(ParlProcess.env(home(h)), UserClasspath.of(), PartitionClient.class, address,
          "2", "-", waitSeconds));
      p.awaitExit(START);
      return p;
    }

    /** Waits until no job process runs on B any more. */
    void awaitNoJobsOnB(Duration timeout) throws Exception {
      Await.until("no job process left on B", timeout, () -> JobProcesses.in(netnsB), List::isEmpty);
    }
  }

  /** Samples B's job processes until closed: no GPU id may ever be seen by two of them at once. */
  private static final class GpuWatch implements AutoCloseable {
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    private final ConcurrentLinkedQueue<String> seen = new ConcurrentLinkedQueue<>();

    GpuWatch(String netns) {
      sampler.scheduleWithFixedDelay(() -> {
        Map<String, List<Long>> shared = JobProcesses.sharedGpus(JobProcesses.in(netns));
        if (!shared.isEmpty()) {
          seen.add(shared + " " + shared.values().stream().flatMap(List::stream).map(JobProcesses::describe).toList());
        }
      }, 0, 300, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() throws InterruptedException {
      sampler.shutdownNow();
      sampler.awaitTermination(10, TimeUnit.SECONDS);
      assertEquals(List.of(), List.copyOf(seen), "GPU ids seen by two live job processes on B (GPU=[pids])");
    }
  }

  @BeforeAll
  void createBed() throws IOException {
    deleteTree(HOMES);
    bed = NetnsHosts.create(3);
    a = bed.host(0);
    b = bed.host(1);
    c = bed.host(2);
  }

  @AfterEach
  void cleanUp() {
    for (Host h : List.of(a, b, c)) {
      h.restore();
    }
    started.forEach(ParlProcess::close);
    started.clear();
  }

  @AfterAll
  void removeBed() throws IOException {
    if (bed != null) {
      bed.close();
      assertEquals(List.of(), bed.remains(), "namespaces or links left behind");
    }
    deleteTree(HOMES);
  }

  /** Records when B's job processes are all gone, sampling every 20 ms from its start. */
  private static final class JobsGone implements AutoCloseable {
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    private final java.util.concurrent.CompletableFuture<Long> at = new java.util.concurrent.CompletableFuture<>();

    private JobsGone(BooleanSupplier gone) {
      sampler.scheduleWithFixedDelay(() -> {
        if (gone.getAsBoolean()) {
          at.complete(System.currentTimeMillis());
        }
      }, 0, 20, TimeUnit.MILLISECONDS);
    }

    /** Every job process in network namespace {@code netns} gone. */
    static JobsGone in(String netns) {
      return new JobsGone(() -> JobProcesses.in(netns).isEmpty());
    }

    /** The job processes of these actors ({@link #ACTOR} lines) gone. */
    static JobsGone of(List<MatchResult> actors) {
      List<Long> pids = actors.stream().map(m -> Long.parseLong(m.group(4))).toList();
      return new JobsGone(() -> pids.stream().allMatch(pid -> JobProcesses.job(pid).isEmpty()));
    }

    long await() throws Exception {
      return at.get(60, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
      sampler.shutdownNow();
    }
  }

  @Test
  void aCutOffWorkerIsDroppedItsCallsFailAndItFencesItself() throws Exception {
    Cluster k = new Cluster("worker-cut").start();
    try (GpuWatch watch = new GpuWatch(k.netnsB); JobsGone gone = JobsGone.in(k.netnsB)) {
      long t0 = System.currentTimeMillis();
      b.cut();
      k.master.awaitLine("worker " + k.workerId + " .*dropped it", Duration.ofSeconds(30));
      long dropped = System.currentTimeMillis() - t0;
      k.awaitStatus(c, " 0 worker\\(s\\)");
      Matcher failed = k.client.awaitLine("FAILED at=(\\d+) type=(\\S+) message=(.*)", Duration.ofSeconds(30));
      assertEquals(LOST, failed.group(2), failed.group());
      assertTrue(failed.group(3).contains(k.workerId), failed.group());
      Matcher next = k.client.awaitLine("NEXT at=(\\d+) type=(\\S+)", Duration.ofSeconds(30));
      assertEquals(LOST, next.group(2), next.group());
      long callFailed = Long.parseLong(failed.group(1)) - t0;
      long nextFailed = Long.parseLong(next.group(1)) - t0;

      k.worker.awaitLine("no master of this cluster is in sight .*: fencing now", Duration.ofSeconds(60));
      long fencing = System.currentTimeMillis() - t0;
      long jobsGone = gone.await() - t0;
      assertEquals(1, k.worker.awaitExit(Duration.ofSeconds(60)), k.worker.output());
      assertTrue(k.worker.output().contains("worker " + k.workerId + " stopped its 2 job(s)"), k.worker.output());
      assertTrue(callFailed <= 15_000 && nextFailed <= 15_000 && dropped <= 15_000,
          "drop " + dropped + " ms, call failed " + callFailed + " ms, next call " + nextFailed + " ms after the cut");
      assertTrue(jobsGone <= 10_000, "B's jobs were gone " + jobsGone + " ms after the cut");
      assertTrue(jobsGone < callFailed, "B's jobs were gone (" + jobsGone + " ms) before the client heard of their loss ("
          + callFailed + " ms)");
      long released = releasedAfterFence(k, t0, jobsGone);

      b.restore();
      k.startWorker();
      k.awaitStatus(c, " 1 worker\\(s\\).*GPUs 0 used / 2 vacant");
      ParlProcess again = k.check(c, "60");
      assertTrue(again.output().contains("READY") && again.output().contains("worker=" + k.workerId), again.output());
      timings("worker B cut: the master dropped it after " + dropped + " ms; the blocked call failed after " + callFailed
          + " ms, a new call after " + nextFailed + " ms; B fenced after " + fencing + " ms, its jobs gone after " + jobsGone
          + " ms, its GPUs released after " + released + " ms");
    }
  }

  @Test
  void aCutOffClientsJobsStopAndTheirGpusReturn() throws Exception {
    Cluster k = new Cluster("client-cut").start();
    try (JobsGone gone = JobsGone.of(k.actors)) {
      long t0 = System.currentTimeMillis();
      c.cut();
      k.master.awaitLine("client c-\\w+ disconnected; stopping its 2 job\\(s\\)", Duration.ofSeconds(40));
      long dropped = System.currentTimeMillis() - t0;
      for (MatchResult actor : k.actors) {
        k.worker.awaitLine("job " + actor.group(1) + " ended", Duration.ofSeconds(30));
        Await.exited(Long.parseLong(actor.group(4)), Duration.ofSeconds(30), "job process of " + actor.group(1));
      }
      long jobsEnded = System.currentTimeMillis() - t0;
      k.awaitStatus(a, " 1 worker\\(s\\).*GPUs 0 used / 2 vacant  0 client\\(s\\)");
      Matcher failed = k.client.awaitLine("FAILED at=(\\d+) type=(\\S+) message=(.*)", Duration.ofSeconds(30));
      assertEquals(LOST, failed.group(2), failed.group());
      assertTrue(failed.group(3).contains("master"), failed.group());
      long callFailed = Long.parseLong(failed.group(1)) - t0;
      assertTrue(jobsEnded <= 30_000, "the client's jobs ended " + jobsEnded + " ms after the cut");
      long jobsGone = gone.await() - t0;
      assertTrue(jobsGone < callFailed, "the client's jobs were gone (" + jobsGone + " ms) before it heard of their loss ("
          + callFailed + " ms)");
      c.restore();
      ParlProcess again = k.check(c, "60");
      assertTrue(again.output().contains("READY"), again.output());
      timings("client C cut: the master dropped the client after " + dropped + " ms, its jobs were gone after " + jobsGone
          + " ms; the client's blocked call failed after " + callFailed + " ms");
    }
  }

  @Test
  void aCutOffMasterGrantsNothingAndItsWorkersFenceThemselves() throws Exception {
    Cluster k = new Cluster("master-cut").start();
    try (GpuWatch watch = new GpuWatch(k.netnsB); JobsGone gone = JobsGone.in(k.netnsB)) {
      long t0 = System.currentTimeMillis();
      a.cut();
      k.master.awaitLine("worker " + k.workerId + " .*dropped it", Duration.ofSeconds(30));
      long dropped = System.currentTimeMillis() - t0;
      Matcher failed = k.client.awaitLine("FAILED at=(\\d+) type=(\\S+) message=(.*)", Duration.ofSeconds(30));
      assertEquals(LOST, failed.group(2), failed.group());
      long callFailed = Long.parseLong(failed.group(1)) - t0;
      k.worker.awaitLine("no master of this cluster is in sight .*: fencing now", Duration.ofSeconds(60));
      long fencing = System.currentTimeMillis() - t0;
      k.awaitNoJobsOnB(Duration.ofSeconds(30));
      long jobsGone = gone.await() - t0;
      assertTrue(jobsGone <= 10_000, "B's jobs were gone " + jobsGone + " ms after the cut");
      assertTrue(jobsGone < callFailed, "B's jobs were gone (" + jobsGone + " ms) before the client heard of their loss ("
          + callFailed + " ms)");
      long released = releasedAfterFence(k, t0, jobsGone);
      assertEquals(1, k.worker.awaitExit(Duration.ofSeconds(60)), k.worker.output());
      assertTrue(k.worker.output().contains("lost sight of every master (last active: " + k.address + ")"), k.worker.output());

      // the cut-off master keeps running without workers: what it had from B is gone, and a create,
      // which no worker of its pool could ever hold, fails at once (docs/contract.md §4.1)
      k.awaitStatus(a, " 0 worker\\(s\\).*GPUs 0 used / 0 vacant");
      ParlProcess onA = k.check(a, "3");
      assertTrue(onA.output().contains("CREATE_FAILED type=org.parl.InvalidRequestException")
          && onA.output().contains("no worker is in the pool"), onA.output());

      a.restore();
      k.startWorker();
      k.awaitStatus(c, " 1 worker\\(s\\).*GPUs 0 used / 2 vacant");
      ParlProcess again = k.check(c, "60");
      assertTrue(again.output().contains("READY") && again.output().contains("worker=" + k.workerId), again.output());
      timings("master A cut: it dropped its worker after " + dropped + " ms; the client's blocked call failed after "
          + callFailed + " ms; B fenced after " + fencing + " ms, its jobs gone after " + jobsGone + " ms, its GPUs released "
          + "after " + released + " ms");
    }
  }

  /**
   * The master's release of B's GPUs (the end of B's lease, as its log line is stamped) came after B's jobs
   * were gone: the lease is never shorter than the fence (docs/contract.md §7).
   *
   * @return the release, in ms after {@code t0}
   */
  private static long releasedAfterFence(Cluster k, long t0, long jobsGone) {
    Matcher line = k.master.awaitLine("^(\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) .*the lease of worker " + k.workerId + " ended",
        Duration.ofSeconds(30));
    long released = loggedAt(line.group(1)) - t0;
    assertTrue(released >= jobsGone, "the master released B's GPUs " + released + " ms after the cut, before B's jobs were "
        + "gone (" + jobsGone + " ms)");
    return released;
  }

  /** The wall-clock time of a log line stamped {@code HH:mm:ss.SSS} today (or just before midnight), in this zone. */
  private static long loggedAt(String stamp) {
    ZonedDateTime now = ZonedDateTime.now();
    ZonedDateTime at = now.with(LocalTime.parse(stamp));
    return (at.isAfter(now.plusHours(12)) ? at.minusDays(1) : at).toInstant().toEpochMilli();
  }

  private ParlProcess track(ParlProcess p) {
    started.add(p);
    return p;
  }

  private static void timings(String line) throws IOException {
    System.out.println("PartitionIT " + line);
    Path log = Files.createDirectories(Path.of("target", "it-logs")).resolve("partition-timings.txt");
    Files.writeString(log, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  private static void deleteTree(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
