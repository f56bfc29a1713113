package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.parl.ActorLostException;
import org.parl.ConnectOptions;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;

/**
 * Job containment: a job is its whole process tree. Children, grandchildren and processes that left
 * the job's session die with the job (a close, a SIGKILL of its JVM, its worker stopping because
 * its master is gone, its worker SIGKILLed), and the job's GPU is given to the next actor only once they are gone, read
 * from {@code /proc}; the memory limit counts the tree; jobs hold none of the worker's secrets and
 * no JVM of the cluster lets another process attach.
 */
class ContainmentIT {

  private static final Duration GONE = Duration.ofSeconds(20);

  @Test
  void aJobsProcessesDieWithItBeforeItsGpuIsGivenAgain() throws Exception {
    try (TestCluster cluster = TestCluster.start(1)) {
      ParlClient parl = cluster.connect(new ConnectOptions().setResourceWaitTimeout(Duration.ofSeconds(60)));

      // closed: the GPU waits for the tree
      RemoteActor<Counter> first = parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await();
      List<Long> tree = spawned(first);
      Future<RemoteActor<Counter>> next = parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync();
      cluster.awaitWaiting(1);
      first.close();
      RemoteActor<Counter> second = next.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
      assertNoneRuns(tree, "after the actor was closed and its GPU given to the next actor");
      assertEquals("0", second.call(x -> x.env("CUDA_VISIBLE_DEVICES")).await());

      // its JVM SIGKILLed: the same
      tree = spawned(second);
      Future<RemoteActor<Counter>> third = parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync();
      cluster.awaitWaiting(1);
      Signals.send("KILL", List.of((long) second.call(Counter::pid).await()));
      RemoteActor<Counter> after = third.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
      assertNoneRuns(tree, "after the job's JVM was killed and its GPU given to the next actor");
      after.close();
      cluster.awaitIdle();
    }
  }

  @Test
  void theMemoryLimitCountsTheTree() throws Exception {
    try (TestCluster cluster = TestCluster.start(0, "--cpus", "2")) {
      ParlClient parl = cluster.connect();
      RemoteActor<Counter> a = parl.actor(Counter.class, CounterImpl.class).maxMemoryMb(300).createAsync().await();
      long hog = a.call(x -> x.spawnHog(600)).await();
      ActorLostException lost = assertThrows(ActorLostException.class, () -> Await.until("the actor being stopped",
          Duration.ofSeconds(60), () -> a.call(Counter::value).await() < 0));
      assertTrue(lost.getMessage().contains("maxMemoryMb=300") && lost.getMessage().contains("processes' resident memory"),
          lost.getMessage());
      Await.until("the child holding the memory being gone", GONE, () -> !ProcStats.running(hog));
      cluster.awaitIdle();
    }
  }

  @Test
  void aStoppingWorkerTakesItsJobsTreesWithIt() throws Exception {
    try (TestCluster cluster = TestCluster.start(0, "--no-local-worker")) {
      OwnWorker own = actorOnAWorkerOfItsOwn(cluster);
      List<Long> tree = spawned(own.actor());
      cluster.master.kill();
      own.worker().awaitExit(Duration.ofSeconds(60));
      assertNoneRuns(tree, "after its worker stopped because its master was gone");
    }
  }

  @Test
  void aKilledWorkersJobsEndTheirTreesThemselves() throws Exception {
    try (TestCluster cluster = TestCluster.start(0, "--no-local-worker")) {
      OwnWorker own = actorOnAWorkerOfItsOwn(cluster);
      List<Long> tree = new ArrayList<>(spawned(own.actor()));
      tree.add((long) own.actor().call(Counter::pid).await());
      long killed = System.nanoTime();
      Signals.send("KILL", List.of(own.worker().pid()));
      try {
        // no worker is left to end the tree, and no other worker on this host sweeps its cgroups
        Await.until("the killed worker's job and every process it started being gone", GONE,
            () -> tree.stream().noneMatch(ProcStats::running));
      } finally {
        Signals.send("KILL", tree.stream().filter(ProcStats::running).toList());
      }
      System.out.printf("a SIGKILLed worker's job tree (%d processes) was gone %d ms after the kill%n", tree.size(),
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed));
    }
  }

  @Test
  void jobsHoldNoSecretAndNoClusterJvmLetsAnotherAttach() throws Exception {
    String token = "0123456789abcdef".repeat(4);
    try (TestCluster cluster = TestCluster.start(Map.of("PARL_TOKEN", token, "PARL_JOB_ENV", "OMP_NUM_THREADS",
        "OMP_NUM_THREADS", "3"), 0,
        "--cpus", "1")) {
      ParlClient parl = cluster.connect(new ConnectOptions().setToken(token));
      RemoteActor<Counter> a = parl.actor(Counter.class, CounterImpl.class).createAsync().await();
      assertNull(a.call(x -> x.env("PARL_TOKEN")).await(), "a job never sees the cluster token");
      assertNull(a.call(x -> x.env("PARL_HOME")).await());
      assertFalse(a.call(x -> x.env("PATH")).await().isEmpty(), "an allowed variable is passed");
      assertEquals("3", a.call(x -> x.env("OMP_NUM_THREADS")).await(), "a variable the operator lets through is passed");
      assertEquals("", a.call(x -> x.env("CUDA_VISIBLE_DEVICES")).await());

      ParlProcess plain = cluster.program(Sleeper.class, "60000");
      plain.awaitLine("sleeping", Duration.ofSeconds(30));
      assertEquals(0, jcmd(plain.pid()), "jcmd attaches to a JVM that allows it:\n" + lastJcmd);
      assertNotEquals(0, jcmd(a.call(Counter::pid).await()), "a job JVM refuses attach");
      assertNotEquals(0, jcmd(cluster.master.pid()), "a node JVM refuses attach");
      plain.close();
    }
  }

  @Test
  void aWorkerRefusesToPassParlVariablesToJobs() throws Exception {
    try (TestCluster cluster = TestCluster.start(0, "--no-local-worker")) {
      ParlProcess worker = ParlProcess.start(withEnv(ParlProcess.env(cluster.home), "PARL_JOB_ENV", "PARL_TOKEN"),
          "worker", "--address", cluster.address, "--cpus", "1");
      assertNotEquals(0, worker.awaitExit(Duration.ofSeconds(60)));
      assertTrue(worker.output().contains("variables named PARL_* are never passed to jobs"), worker.output());
    }
  }

  private static Map<String, String> withEnv(Map<String, String> env, String name, String value) {
    env.put(name, value);
    return env;
  }

  private static String lastJcmd = "";

  private static int jcmd(long pid) throws IOException, InterruptedException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "VM.version").redirectErrorStream(true).start();
    lastJcmd = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return -1;
    }
    return p.exitValue();
  }

  /** The processes an actor starts ({@link Counter#spawnTree}), checked to run. */
  private static List<Long> spawned(RemoteActor<Counter> a) throws Exception {
    List<Long> tree = new ArrayList<>(a.call(Counter::spawnTree).await());
    assertEquals(3, tree.size(), "three processes started: " + tree);
    for (long pid : tree) {
      Await.until("process " + pid + " running", Duration.ofSeconds(10), () -> ProcStats.running(pid));
    }
    return tree;
  }

  /** A worker of one CPU, started apart from the master, and an actor placed on it. */
  private record OwnWorker(ParlProcess worker, RemoteActor<Counter> actor) {}

  private static OwnWorker actorOnAWorkerOfItsOwn(TestCluster cluster) throws Exception {
    ParlProcess[] worker = new ParlProcess[1];
    cluster.addWorker(worker, "--cpus", "1");
    RemoteActor<Counter> a = cluster.connect().actor(Counter.class, CounterImpl.class).createAsync().await();
    return new OwnWorker(worker[0], a);
  }

  private static void assertNoneRuns(List<Long> pids, String when) {
    List<Long> left = pids.stream().filter(ProcStats::running).toList();
    assertTrue(left.isEmpty(), "process(es) " + left + " of the job still run " + when);
  }

  /** Reads {@code /proc/PID/stat} as the worker does: a zombie has exited. */
  static final class ProcStats {

    private ProcStats() {}

    static boolean running(long pid) {
      try {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        char state = stat.substring(stat.lastIndexOf(')') + 2).charAt(0);
        return state != 'Z' && state != 'X';
      } catch (IOException e) {
        return false;
      }
    }
  }
}
