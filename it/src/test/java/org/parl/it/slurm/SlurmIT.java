package org.parl.it.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.demo.FakeNvidiaSmi;
import org.parl.it.Await;
import org.parl.it.ParlProcess;
import org.parl.it.SlurmClient;
import org.parl.it.hosts.Host;
import org.parl.it.hosts.NetnsHosts;
import org.parl.it.hosts.Required;

/**
 * {@code bin/parl slurm} under a real Slurm ({@link SlurmCluster}: slurmctld and two slurmd in network
 * namespaces, 4 fake GPUs per node through GRES). A job that holds GPU 0 of n2 runs first, so that the
 * parl job's allocation, 2 GPUs per node, is GPUs 0,1 on n1 and 1,2 on n2: the workers must lend exactly
 * those, not the node's 4, and the actors must see them in {@code CUDA_VISIBLE_DEVICES}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SlurmIT {

  private static final Duration JOB = Duration.ofSeconds(240);
  private static final Duration GONE = Duration.ofSeconds(30);
  private static final Pattern ACTOR = Pattern.compile("ACTOR node=(\\S+) gpus=(\\S+) cvd=(\\S+) pid=(\\d+) sum=5");
  private static final int GPUS_PER_NODE = 4;

  private Path dir;
  private NetnsHosts bed;
  private SlurmCluster slurm;
  private Map<String, String> jobEnv;
  private ParlProcess blocker;
  private long blockerScript;

  @BeforeAll
  void start() throws Exception {
    Required.that(Files.isExecutable(Path.of("/usr/sbin/slurmctld")) && Files.isExecutable(Path.of("/usr/sbin/munged")),
        "Slurm and munge (bin/setup-slurm installs them; bin/test runs it)");
    dir = Files.createTempDirectory("parl-slurm-");
    bed = NetnsHosts.create(3);
    slurm = SlurmCluster.start(bed, dir, GPUS_PER_NODE);
    Path home = Files.createDirectories(dir.resolve("home"));
    jobEnv = new HashMap<>(ParlProcess.env(home));
    jobEnv.put("PARL_NVIDIA_SMI", perNodeFake(dir.resolve("bin")).toString());
    jobEnv.put("JAVA_HOME", System.getProperty("java.home"));
    // another user's job holds GPU 0 of n2 for the whole test
    Path pidFile = dir.resolve("blocker.pid");
    blocker = slurm.start(Map.of(), "blocker", List.of("sbatch", "--wait", "--nodes=1", "--nodelist=n2", "--gres=gpu:1",
        "--cpus-per-task=1", "--output=" + dir.resolve("blocker.out"), "--wrap", "echo $$ > " + pidFile + "; exec sleep 600"));
    Await.until("the job holding GPU 0 of n2 to start", JOB, () -> Files.exists(pidFile) && Files.size(pidFile) > 0);
    blockerScript = Long.parseLong(Files.readString(pidFile).strip());
  }

  /**
   * A fake nvidia-smi that answers as the fake of the node it runs on (by its hostname): each node is
   * a host with GPUs of its own, whose UUIDs no other node lists.
   */
  private static Path perNodeFake(Path bin) throws java.io.IOException {
    for (int i = 1; i <= 3; i++) {
      FakeNvidiaSmi.write(bin.resolve("n" + i), GPUS_PER_NODE);
    }
    Path smi = bin.resolve("nvidia-smi");
    Files.writeString(smi, "#!/bin/sh\nexec \"" + bin + "/$(hostname)/fake-gpus-" + GPUS_PER_NODE + "/nvidia-smi\" \"$@\"\n");
    Files.setPosixFilePermissions(smi, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    return smi;
  }

  @AfterAll
  void stop() throws Exception {
    try {
      if (slurm != null) {
        slurm.close();
      }
      if (blocker != null) {
        blocker.close();
      }
    } finally {
      if (bed != null) {
        bed.close();
        assertEquals(List.of(), bed.remains(), "namespaces or links left behind");
      }
      deleteTree(dir);
    }
  }

  @Test
  void aJobRunsItsProgramOnAClusterOfItsNodesWithExactlyItsGpus() throws Exception {
    ParlProcess job = submit("run", "4");
    int status = job.awaitExit(JOB);
    String out = jobOutput("run");
    assertEquals(7, status, "sbatch --wait passes on the job's status, which is the program's; job output:\n" + out);
    Map<String, Set<String>> seen = actors(out);
    assertEquals(Map.of("n1", Set.of("0", "1"), "n2", Set.of("1", "2")), seen,
        "one actor on each GPU Slurm gave the job, and on no other; job output:\n" + out);
    assertTrue(out.contains("parl slurm: the command exited with status 7; stopping the cluster"), out);
    assertNothingLeft(pids(out), out);
  }

  @Test
  void aCancelledJobLeavesNothing() throws Exception {
    ParlProcess job = submit("cancelled", "4", "wait");
    String id = job.awaitLine("^(\\d+)$", JOB).group(1);
    Path output = dir.resolve("cancelled.out");
    String ready = Await.until("the program's actors to be ready", JOB,
        () -> Files.exists(output) ? Files.readString(output) : "", s -> s.contains("\nREADY"));
    assertEquals(Map.of("n1", Set.of("0", "1"), "n2", Set.of("1", "2")), actors(ready), ready);
    slurm.run("scancel", id);
    int status = job.awaitExit(JOB);
    String out = jobOutput("cancelled");
    assertTrue(status != 0, "a cancelled job fails; job output:\n" + out);
    assertNothingLeft(pids(out), out);
  }

  /** {@code sbatch --wait --parsable} of the test's batch script, running {@link SlurmClient} with {@code args}. */
  private ParlProcess submit(String name, String... args) throws IOException {
    Path root = Path.of(System.getProperty("parl.root", "..")).toAbsolutePath().normalize();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path script = dir.resolve(name + ".sbatch");
    Files.writeString(script, String.join("\n",
        "#!/bin/bash",
        "#SBATCH --job-name=parl-" + name,
        "#SBATCH --nodes=2",
        "#SBATCH --ntasks-per-node=1",
        "#SBATCH --cpus-per-task=1",
        "#SBATCH --gres=gpu:2",
        "#SBATCH --time=5",
        "#SBATCH --output=" + dir.resolve(name + ".out"),
        "exec " + root.resolve("bin/parl") + " slurm -- " + java + " -cp " + classpath(root) + " " + SlurmClient.class.getName()
            + " " + String.join(" ", args),
        ""));
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return slurm.start(jobEnv, name, List.of("sbatch", "--wait", "--parsable", script.toString()));
  }

  /** The job's output, also kept in target/it-logs. */
  private String jobOutput(String name) throws IOException {
    Path logs = Files.createDirectories(Path.of("target", "it-logs"));
    Files.copy(dir.resolve(name + ".out"), logs.resolve("slurm-job-" + name + ".out"), StandardCopyOption.REPLACE_EXISTING);
    Files.copy(dir.resolve(name + ".sbatch"), logs.resolve("slurm-job-" + name + ".sbatch"),
        StandardCopyOption.REPLACE_EXISTING);
    return Files.readString(dir.resolve(name + ".out"));
  }

  private static String classpath(Path root) throws IOException {
    List<Path> cp = new ArrayList<>(List.of(root.resolve("client/target/parl.jar")));
    try (Stream<Path> libs = Files.list(root.resolve("client/target/client-lib"))) {
      libs.sorted().forEach(cp::add);
    }
    cp.add(root.resolve("it/target/test-classes"));
    return cp.stream().map(Path::toString).collect(Collectors.joining(":"));
  }

  /** Node -> the GPUs of its actors, each checked to be its CUDA_VISIBLE_DEVICES; a GPU given twice fails. */
  private static Map<String, Set<String>> actors(String out) {
    Map<String, Set<String>> seen = new TreeMap<>();
    Matcher m = ACTOR.matcher(out);
    while (m.find()) {
      assertEquals(m.group(2), m.group(3), "CUDA_VISIBLE_DEVICES is the actor's allocation: " + m.group());
      assertTrue(seen.computeIfAbsent(m.group(1), n -> new TreeSet<>()).add(m.group(2)), "GPU given twice: " + m.group());
    }
    return seen;
  }

  private static Set<Long> pids(String out) {
    Set<Long> pids = new HashSet<>();
    ACTOR.matcher(out).results().forEach(r -> pids.add(Long.parseLong(r.group(4))));
    return pids;
  }

  /**
   * The job's actor processes are gone; inside each node nothing runs but its slurmd and the other job's
   * processes (its batch script, found by the pid it wrote, and that script's slurmstepd); the token
   * folder is gone.
   */
  private void assertNothingLeft(Set<Long> actorPids, String out) throws Exception {
    assertEquals(4, actorPids.size(), out);
    for (long pid : actorPids) {
      Await.exited(pid, GONE, "actor process " + pid);
    }
    Set<Long> other = new HashSet<>(Set.of(blockerScript));
    ProcessHandle.of(blockerScript).ifPresent(p -> {
      p.parent().ifPresent(stepd -> other.add(stepd.pid()));
      p.descendants().forEach(d -> other.add(d.pid()));
    });
    for (int i = 0; i < slurm.nodes().size(); i++) {
      Host host = slurm.nodes().get(i);
      long slurmd = slurm.slurmd(SlurmCluster.nodeName(i));
      Await.until("only slurmd left inside " + host, GONE, () -> describe(SlurmCluster.pidsInside(host), slurmd, other),
          Map::isEmpty);
    }
    Path tokens = dir.resolve("home/slurm");
    try (Stream<Path> left = Files.exists(tokens) ? Files.list(tokens) : Stream.empty()) {
      assertEquals(List.of(), left.toList(), "the allocation's token folder is deleted; job output:\n" + out);
    }
  }

  private static Map<Long, String> describe(Set<Long> pids, long slurmd, Set<Long> other) {
    Map<Long, String> left = new TreeMap<>();
    for (long pid : pids) {
      if (pid != slurmd && !other.contains(pid)) {
        ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
            .ifPresent(p -> left.put(pid, p.info().commandLine().orElse("?")));
      }
    }
    return left;
  }

  private static void deleteTree(Path dir) throws IOException {
    if (dir != null && Files.exists(dir)) {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
