package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.ActorLostException;
import org.parl.ClusterMismatchException;
import org.parl.ConnectOptions;
import org.parl.InvalidRequestException;
import org.parl.Parl;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.RemoteAttributeException;
import org.parl.RemoteException;
import org.parl.RemoteSerializationException;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;
import org.parl.it.actors.FailingCtor;
import org.parl.it.actors.Libs;
import org.parl.it.actors.LibsImpl;
import org.parl.it.actors.Point;
import org.parl.it.actors.Unserialisable;

/** Remote actors on a CPU cluster of real processes: a master whose local worker lends 3 CPUs. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CpuActorsIT {

  private TestCluster cluster;
  private ParlClient parl;

  @BeforeAll
  void start() throws Exception {
    cluster = TestCluster.start(0, "--cpus", "3");
    Path files = Path.of("target", "it-files");
    Files.createDirectories(files);
    Files.writeString(files.resolve("hello.txt"), "hello from the client");
    parl = cluster.connect(new ConnectOptions().addDistributedFiles("target/it-files/*.txt"));
  }

  @AfterAll
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aWorkerShowsItsHostsCoresBesideTheCpusItLends() throws Exception {
    io.vertx.core.json.JsonObject worker = cluster.awaitIdle().getJsonArray("workers").getJsonObject(0);
    assertEquals(3, worker.getJsonObject("cpus").getInteger("total"), "it lends --cpus 3: " + worker);
    assertEquals(Runtime.getRuntime().availableProcessors(), worker.getInteger("hostCpus"),
        "the host's cores, this test running on the worker's host: " + worker);
  }

  @Test
  void blockingAndAsyncCallsKeepOrderAndState() {
    Counter c = parl.actor(Counter.class, CounterImpl.class).create();
    assertEquals(2, c.add(2));
    assertEquals(5, c.add(3));
    RemoteActor<Counter> a = parl.actor(Counter.class, CounterImpl.class).args(10).createAsync().await();
    List<Future<Integer>> results = new ArrayList<>();
    for (int i = 1; i <= 200; i++) {
      results.add(a.call(x -> x.add(1)));
    }
    for (int i = 0; i < 200; i++) {
      assertEquals(11 + i, results.get(i).await(), "pipelined calls run in the order they were made");
    }
    assertEquals(210, a.get("count", Integer.class).await());
    a.set("count", 7).await();
    assertEquals(7, a.call(Counter::value).await());
    a.run(Counter::reset).await();
    assertEquals(0, a.proxy().value());
    assertEquals("", c.env("CUDA_VISIBLE_DEVICES"), "a CPU actor sees no GPUs");
    assertEquals(List.of(), a.gpus());
    parl.release(c);
    a.close();
    assertThrows(InvalidRequestException.class, () -> a.call(Counter::value).await());
  }

  @Test
  void arraysRecordsAndGenericsTravel() {
    try (RemoteActor<Counter> a = parl.actor(Counter.class, CounterImpl.class).createAsync().await()) {
      float[] big = new float[262_144];
      Random r = new Random(1);
      for (int i = 0; i < big.length; i++) {
        big[i] = r.nextFloat();
      }
      assertArrayEquals(big, a.call(x -> x.echo(big)).await());
      assertArrayEquals(new double[] {2, 4, -1}, a.call(x -> x.scale(new double[] {1, 2, -0.5}, 2)).await());
      assertArrayEquals(new byte[] {0, 1, 2}, a.call(x -> x.bytes(3)).await());
      assertEquals(new Point(5, 2, "a+3"), a.call(x -> x.move(new Point(2, 2, "a"), 3)).await());
      List<Point> points = a.call(x -> x.points(3)).await();
      assertEquals(new Point(2, -2, "p2"), points.get(2), "generic element types are restored");
      Map<String, List<Integer>> groups = a.call(x -> x.groups(List.of("ab", "abc", "b"))).await();
      assertEquals(Map.of("a", List.of(2, 3), "b", List.of(1)), groups);
      assertEquals(List.of(3, 4), groups.get("a").stream().map(i -> i + 1).toList());
    }
  }

  @Test
  void aThrowingMethodLeavesTheActorUsable() {
    try (RemoteActor<Counter> a = parl.actor(Counter.class, CounterImpl.class).createAsync().await()) {
      Counter c = a.proxy();
      c.add(4);
      RemoteException e = assertThrows(RemoteException.class, () -> c.fail("boom"));
      assertEquals("java.lang.IllegalStateException", e.remoteClassName());
      assertEquals("boom", e.remoteMessage());
      assertTrue(e.getMessage().contains("CounterImpl.fail(java.lang.String) threw java.lang.IllegalStateException: boom"), e.getMessage());
      assertEquals(CounterImpl.class.getName(), e.remoteStackTrace()[0].getClassName());
      assertEquals("fail", e.remoteStackTrace()[0].getMethodName());
      assertEquals(5, c.add(1), "the actor keeps its state after a remote exception");
    }
  }

  @Test
  void aThrowingConstructorFailsCreationAndFreesTheJob() throws Exception {
    RemoteException e = assertThrows(RemoteException.class,
        () -> parl.actor(Counter.Simple.class, FailingCtor.class).create());
    assertEquals("java.lang.IllegalArgumentException", e.remoteClassName());
    assertTrue(e.getMessage().contains("constructor refuses"), e.getMessage());
    cluster.awaitIdle();
  }

  @Test
  void badFieldsAndArgumentsAreReported() {
    try (RemoteActor<Counter> a = parl.actor(Counter.class, CounterImpl.class).createAsync().await()) {
      RemoteAttributeException unknown = assertThrows(RemoteAttributeException.class, () -> a.get("cnt", Integer.class).await());
      assertTrue(unknown.getMessage().contains("CounterImpl has no field 'cnt'; its fields are count, hoard"), unknown.getMessage());
      assertThrows(RemoteAttributeException.class, () -> a.set("nope", 1).await());
      assertThrows(RemoteSerializationException.class, () -> a.set("count", "not a number").await());
      RemoteSerializationException bad = assertThrows(RemoteSerializationException.class,
          () -> a.call(x -> x.describe(new Unserialisable())).await());
      assertTrue(bad.getMessage().contains("cannot be serialised"), bad.getMessage());
      assertEquals(3, a.call(x -> x.add(3)).await(), "the actor still works");
      assertThrows(IllegalArgumentException.class, () -> a.call(x -> null));
    }
  }

  @Test
  void impossibleRequestsAreRefusedWithTheirException() {
    ClusterMismatchException gpu = assertThrows(ClusterMismatchException.class,
        () -> parl.actor(Counter.class, CounterImpl.class).gpus(1).create());
    assertTrue(gpu.getMessage().contains("this is a CPU cluster"), gpu.getMessage());
    assertThrows(InvalidRequestException.class, () -> parl.actor(Counter.class, CounterImpl.class).cpus(-1).create());
    assertThrows(InvalidRequestException.class, () -> parl.actor(Counter.class, CounterImpl.class).args("x", 2).create());
  }

  @Test
  void moreActorsThanCpusWaitThenRun() throws Exception {
    cluster.awaitIdle();
    List<RemoteActor<Counter>> three = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      three.add(parl.actor(Counter.class, CounterImpl.class).createAsync().await());
    }
    Future<RemoteActor<Counter>> fourth = parl.actor(Counter.class, CounterImpl.class).createAsync();
    cluster.awaitWaiting(1);
    assertFalse(fourth.isComplete(), "3 CPUs hold 3 actors; the fourth waits");
    three.get(0).close();
    RemoteActor<Counter> a = fourth.await(30, TimeUnit.SECONDS);
    assertEquals(1, a.call(x -> x.add(1)).await());
    a.close();
    three.get(1).close();
    three.get(2).close();
    cluster.awaitIdle();
  }

  @Test
  void aJobOverItsMemoryLimitIsStoppedWithTheReason() throws Exception {
    RemoteActor<Counter> a = parl.actor(Counter.class, CounterImpl.class).maxMemoryMb(128).createAsync().await();
    ActorLostException e = assertThrows(ActorLostException.class, () -> a.call(x -> x.allocate(400)).await());
    assertTrue(e.getMessage().contains("maxMemoryMb=128"), e.getMessage());
    assertThrows(ActorLostException.class, () -> a.call(Counter::value).await(), "later calls fail too");
    a.close();
    cluster.awaitIdle();
  }

  @Test
  void aKilledJobFailsPendingAndLaterCalls() throws Exception {
    RemoteActor<Counter> a = parl.actor(Counter.class, CounterImpl.class).createAsync().await();
    long pid = a.call(Counter::pid).await();
    Path running = cluster.marker("killed-job");
    Future<Void> pending = a.run(x -> x.markThenSleep(running.toString(), 30_000));
    Await.until("the call running in job " + a.jobId(), Duration.ofSeconds(20), () -> Files.exists(running));
    long t0 = System.nanoTime();
    ProcessHandle.of(pid).orElseThrow().destroyForcibly();
    ActorLostException e = assertThrows(ActorLostException.class, () -> pending.await(10, TimeUnit.SECONDS));
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertTrue(e.getMessage().contains("killed by signal 9"), e.getMessage());
    assertTrue(ms < 5_000, "the pending call failed after " + ms + " ms");
    assertThrows(ActorLostException.class, () -> a.call(Counter::value).await());
    a.close();
    cluster.awaitIdle();
  }

  /**
   * A job's class path holds only the job's own jars; an actor still reaches the rest of the
   * installation (SLF4J and its logback binding, whose lines go to the job's log; Hazelcast),
   * which its client does not ship since the cluster has them.
   */
  @Test
  void anActorReachesTheInstallationsJarsThatItsJobsClassPathLeavesOut() throws Exception {
    List<JobProcesses.Job> jobs = JobProcesses.of(cluster.home);
    assertFalse(jobs.isEmpty());
    for (JobProcesses.Job job : jobs) {
      List<String> cmd = List.of(Files.readString(Path.of("/proc", String.valueOf(job.pid()), "cmdline")).split("\0"));
      String classPath = cmd.get(cmd.indexOf("-cp") + 1);
      assertTrue(classPath.contains("parl-job") && !classPath.contains("hazelcast"), classPath);
      assertTrue(cmd.get(cmd.indexOf("--libraries") + 1).contains("hazelcast"), cmd.toString());
    }
    try (var libs = parl.actor(Libs.class, LibsImpl.class).createAsync().await()) {
      assertEquals("ch.qos.logback.classic.Logger", libs.proxy().log("a line through SLF4J from an actor"));
      assertEquals("parl-libraries", libs.proxy().loaderOf("com.hazelcast.core.Hazelcast"));
      assertEquals("app", libs.proxy().loaderOf("com.fasterxml.jackson.databind.ObjectMapper"));
      Await.until("the actor's SLF4J line in a job log", Duration.ofSeconds(10),
          () -> jobLogsContain("INFO  LibsImpl - a line through SLF4J from an actor"));
    }
  }

  private boolean jobLogsContain(String text) throws IOException {
    try (Stream<Path> files = Files.walk(cluster.home.resolve("workers"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".log")).toList()) {
        if (Files.readString(f).contains(text)) {
          return true;
        }
      }
      return false;
    }
  }

  @Test
  void distributedFilesAreInTheWorkingDirectory() {
    try (RemoteActor<Counter> a = parl.actor(Counter.class, CounterImpl.class).createAsync().await()) {
      assertEquals("hello from the client", a.call(x -> x.readFile("target/it-files/hello.txt")).await());
      a.run(x -> x.print("a line for the log")).await();
    }
  }

  @Test
  void aKilledClientHasItsJobsStopped() throws Exception {
    ParlProcess client = cluster.program(ClientProgram.class, cluster.address, "2", "0");
    String ready = client.awaitLine("READY (\\S+)", TestCluster.START).group(1);
    List<Long> pids = new ArrayList<>();
    for (String job : ready.split(",")) {
      pids.add(Long.parseLong(job.split("=")[1]));
    }
    cluster.awaitSnapshot(s -> s.getJsonArray("jobs").size() >= 2, Duration.ofSeconds(10));
    client.kill();
    cluster.awaitIdle();
    for (long pid : pids) {
      Await.exited(pid, Duration.ofSeconds(10), "job process " + pid + " ending after its client was killed");
    }
  }

  @Test
  void closingTheClientFreesEverything() throws Exception {
    ParlClient other = Parl.connect(cluster.options());
    assertNotNull(other.id());
    other.actor(Counter.class, CounterImpl.class).create();
    other.actor(Counter.class, CounterImpl.class).createAsync().await();
    other.close();
    cluster.awaitIdle();
  }
}
