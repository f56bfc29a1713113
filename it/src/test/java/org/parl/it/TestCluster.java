package org.parl.it;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import org.parl.ConnectOptions;
import org.parl.Parl;
import org.parl.ParlClient;
import org.parl.demo.FakeNvidiaSmi;
import org.parl.internal.wire.ClassPaths;

/**
 * A master process (with its local worker) under a private PARL_HOME, plus whatever else a test
 * starts against it; closing it kills everything it started.
 */
public final class TestCluster implements AutoCloseable {

  public static final Duration START = Duration.ofSeconds(90);

  public final Path home;
  public final ParlProcess master;
  public final String address;
  public final String localWorker;
  private final List<AutoCloseable> others = new ArrayList<>();
  private TestMember member;
  /** Fake hosts made by {@link #fakeSmi(int)} so far. */
  private int fakeHosts;

  private TestCluster(Path home, ParlProcess master, String address, String localWorker) {
    this.home = home;
    this.master = master;
    this.address = address;
    this.localWorker = localWorker;
  }

  /** Starts {@code parl master --port 0 <args>}; {@code fakeGpus > 0} adds a fake nvidia-smi. */
  public static TestCluster start(int fakeGpus, String... args) throws Exception {
    return start(Map.of(), fakeGpus, args);
  }

  /** Like {@link #start(int, String...)}, the master with more environment (such as {@code PARL_LIMITS_CONFIG}). */
  public static TestCluster start(Map<String, String> env, int fakeGpus, String... args) throws Exception {
    return launch(env, fakeGpus > 0 ? List.of("--gpu-cluster") : List.of(), fakeGpus, args);
  }

  /**
   * Starts {@code parl master --mixed --port 0 <args>} whose local worker lends {@code cpus} CPUs and
   * {@code fakeGpus} GPUs of a fake nvidia-smi (none when 0).
   */
  public static TestCluster startMixed(int cpus, int fakeGpus, String... args) throws Exception {
    return launch(Map.of(), List.of("--mixed", "--cpus", String.valueOf(cpus)), fakeGpus, args);
  }

  /** Starts {@code parl master --port 0 <kind> [--nvidia-smi <fake>] <args>} and waits until it is ready. */
  private static TestCluster launch(Map<String, String> env, List<String> kind, int fakeGpus, String... args) throws Exception {
    Path home = Files.createTempDirectory("parl-it");
    List<String> cmd = new ArrayList<>(List.of("master", "--port", "0"));
    cmd.addAll(kind);
    if (fakeGpus > 0) {
      cmd.addAll(List.of("--nvidia-smi", fakeGpusByHand(home, fakeGpus)));
    }
    cmd.addAll(List.of(args));
    Map<String, String> masterEnv = ParlProcess.env(home);
    masterEnv.putAll(env);
    ParlProcess master = ParlProcess.start(masterEnv, cmd.toArray(String[]::new));
    Matcher m = master.awaitLine("parl master ready: address (\\S+), \\w+ cluster, (?:local worker (w-\\w+)|no local worker)", START);
    return new TestCluster(home, master, m.group(1), m.group(2));
  }

  /** Runs {@code parl ARGS...} against this cluster's home (status, drain...) and returns it once it exited. */
  public ParlProcess cli(String... args) {
    ParlProcess p = ParlProcess.start(ParlProcess.env(home), args);
    others.add(p);
    p.awaitExit(Duration.ofSeconds(60));
    return p;
  }

  /**
   * Closes {@code process} with this cluster, after this JVM's member has left: a member leaves a
   * whole cluster quickly, but one whose masters were all just killed may wait on it for long.
   */
  public <T extends AutoCloseable> T closeWith(T process) {
    others.add(process);
    return process;
  }

  /** Starts another worker; returns its id once it is ready. */
  public String addWorker(ParlProcess[] handle, String... args) {
    List<String> cmd = new ArrayList<>(List.of("worker", "--address", address));
    cmd.addAll(List.of(args));
    ParlProcess p = ParlProcess.start(ParlProcess.env(home), cmd.toArray(String[]::new));
    others.add(p);
    handle[0] = p;
    return p.awaitLine("parl worker (w-\\w+) ready", START).group(1);
  }

  /** The file holding the cluster token, which the master created in this cluster's PARL_HOME. */
  public Path tokenFile() {
    return home.resolve("token");
  }

  /**
   * Options to connect to this cluster, with its token file, the way a user on another host would
   * name it (this test JVM has no PARL_HOME of the cluster's).
   */
  public ConnectOptions options() {
    return new ConnectOptions(address).setTokenFile(tokenFile());
  }

  /** The cluster token the master created in this cluster's PARL_HOME. */
  public String token() {
    try {
      return Files.readString(home.resolve("token")).strip();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * Writes {@code token} as {@code home}'s token file (mode 600), as a user copies the master's
   * token to another host: every node command needs it.
   */
  public static void giveToken(Path home, String token) {
    try {
      if (!Files.isDirectory(home)) { // private, as a PARL_HOME is
        Files.createDirectories(home, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
            java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
      }
      Path file = home.resolve("token");
      Files.writeString(file, token + "\n");
      Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * A fake nvidia-smi of another host, with {@code gpus} GPUs of its own (UUIDs no other call's fake
   * lists), for a worker that stands for a host of its own: one host's GPUs are lent by one worker.
   */
  public synchronized Path fakeSmi(int gpus) {
    return fakeSmi(home.resolve("hosts").resolve(String.valueOf(++fakeHosts)), gpus);
  }

  /**
   * The master's fake is made as a user makes one, by {@code parl fake-gpus N}: every GPU cluster of
   * the tests then shows that its script is what a GPU cluster needs.
   */
  private static String fakeGpusByHand(Path home, int gpus) {
    try (ParlProcess p = ParlProcess.start(ParlProcess.env(home), "fake-gpus", String.valueOf(gpus))) {
      String script = p.awaitLine("^(/.*/fake-gpus-" + gpus + "/nvidia-smi)$", START).group(1);
      if (p.awaitExit(START) != 0) {
        throw new AssertionError("parl fake-gpus failed:\n" + p.output());
      }
      return script;
    }
  }

  private static Path fakeSmi(Path home, int gpus) {
    try {
      return FakeNvidiaSmi.write(home.resolve("bin"), gpus);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Runs a Java main class of the test class path as its own process (a user program) on this cluster's host. */
  public ParlProcess program(Class<?> main, String... args) throws Exception {
    return program(ParlProcess.env(home), main, args);
  }

  /** Runs a Java main class of the test class path as its own process, with the given environment. */
  public ParlProcess program(Map<String, String> env, Class<?> main, String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(String.join(java.io.File.pathSeparator, ClassPaths.current().stream().map(Path::toString).toList()));
    cmd.add(main.getName());
    cmd.addAll(List.of(args));
    ParlProcess p = ParlProcess.startCommand(env, main.getSimpleName(), cmd);
    others.add(p);
    return p;
  }

  /**
   * A client of this cluster, closed (freeing its actors) when the cluster is. It presents the
   * cluster's token file unless the options name a token or a token file of their own.
   */
  public ParlClient connect(ConnectOptions options) {
    if (options.getToken() == null && options.getTokenFile() == null) {
      options.setTokenFile(tokenFile());
    }
    ParlClient client = Parl.connect(options.setAddress(address));
    others.add(0, client);
    return client;
  }

  public ParlClient connect() {
    return connect(new ConnectOptions());
  }

  public synchronized TestMember member() throws Exception {
    if (member == null) {
      member = TestMember.join(address, token());
    }
    return member;
  }

  /** Polls the JobCenter's snapshot until {@code check} holds (the pool is also verified exact). */
  public JsonObject awaitSnapshot(Predicate<JsonObject> check, Duration timeout) throws Exception {
    return Await.until("the JobCenter reaching the expected state", timeout, () -> {
      JsonObject s = member().snapshot();
      if (!"ok".equals(s.getString("invariant"))) {
        throw new AssertionError("pool invariant broken: " + s.getString("invariant"));
      }
      return s;
    }, check);
  }

  /**
   * Waits until exactly {@code n} requests wait in the JobCenter's queue: the proof that a request
   * was queued rather than granted (the JobCenter decides each request when it arrives).
   */
  public JsonObject awaitWaiting(int n) throws Exception {
    return awaitSnapshot(s -> s.getInteger("waiting") == n, Duration.ofSeconds(20));
  }

  /**
   * A fresh path under this cluster's home for a marker file that an actor creates when a call
   * starts running ({@code Counter.markThenSleep}); nothing is there yet.
   */
  public Path marker(String name) throws java.io.IOException {
    return Files.createDirectories(home.resolve("markers")).resolve(name + "-" + System.nanoTime());
  }

  /** Waits until no job holds resources and every worker is wholly vacant. */
  public JsonObject awaitIdle() throws Exception {
    return awaitSnapshot(s -> s.getJsonArray("jobs").isEmpty(), Duration.ofSeconds(20));
  }

  @Override
  public void close() throws Exception {
    if (member != null) {
      member.close();
    }
    for (AutoCloseable c : others) {
      c.close();
    }
    master.close();
  }
}
