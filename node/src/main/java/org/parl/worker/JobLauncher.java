package org.parl.worker;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.parl.ParlException;
import org.parl.internal.security.PrivatePaths;
import org.parl.internal.wire.ClassPaths;
import org.parl.internal.wire.Frames;
import org.parl.job.JobMain;
import org.parl.limits.LimitSettings;
import org.parl.worker.gpu.GpuAllocation;

/**
 * Builds and starts the command of a job process: a plain JVM (no Hazelcast, none of its flags),
 * leader of a session of its own, refusing attach, with a scrubbed environment
 * ({@link JobEnvironment}) and the exact GPU environment set before it starts, a heap limit when
 * the actor has a memory limit, its own working directory, its output carried into its log by the
 * worker ({@link JobOutput}, capped on every write), and its secrets on its standard input.
 *
 * <p>Starting a process blocks briefly (fork/exec): call it off the event loop.
 */
final class JobLauncher {

  /** Extra JVM options for every job process, from the worker's environment (profiling, GC logs). */
  static final String OPTIONS_ENV = "PARL_JOB_JAVA_OPTS";

  /** Exit status of a JVM stopped by {@code -XX:+ExitOnOutOfMemoryError}. */
  static final int OOM_EXIT = 3;

  /** A class from each jar that a job process loads its own code from: its module, the wire format, Jackson. */
  private static final List<Class<?>> JOB_CODE = List.of(JobMain.class, Frames.class, ParlException.class,
      ObjectMapper.class, JsonFactory.class, JsonAutoDetect.class, SmileFactory.class);

  /** Where util-linux's {@code setsid} is on Linux hosts. */
  private static final List<Path> SETSID = List.of(Path.of("/usr/bin/setsid"), Path.of("/bin/setsid"));

  /**
   * The JIT compiles the JDK's AES-GCM early, after a hundredth of its usual count of calls: until it
   * is compiled with its intrinsics it is many times slower, and a new job's first large arrays on a
   * sealed connection would crawl. Also given to clients by {@code bin/parl run}.
   */
  static final List<String> CRYPTO_JIT = List.of("-XX:CompileCommand=quiet",
      "-XX:CompileCommand=CompileThresholdScaling,com.sun.crypto.provider.*::*,0.01");

  /** Whether this Java (the job's too: it is the same) knows the option (17.0.9 and later). */
  private static final boolean TRIM_NATIVE_HEAP = knows("TrimNativeHeapInterval");
  private static final int TRIM_INTERVAL_MS = 3_000;

  private final String javaBinary;
  private final String host;
  private final Path blobs;
  private final List<String> extraOptions;
  /** What every job gets of the worker's environment ({@link JobEnvironment}). */
  private final Map<String, String> passedEnv;
  /** {@code setsid}, where the host has it: each job JVM leads a session and process group of its own. */
  private final Optional<String> setsid;
  /** Made on first use, off the event loop (it reads the jars' manifests); guarded by {@code this}. */
  private String classpath;
  private String libraries;
  private JobArchive archive;
  /** The host's shipped-code cache cap that job processes enforce (docs/contract.md §8); set once the limits are read. */
  private volatile long codeCacheMaxBytes = LimitSettings.DEFAULTS.codeCacheMaxBytes();
  /** The cap of each job log, enforced on every write by the process's {@link JobOutput}. */
  private volatile long logMaxBytes = LimitSettings.DEFAULTS.logMaxBytes();
  /** What a job's GPU ids are named by and which UUIDs its identity check expects. */
  private volatile GpuAllocation gpuAllocation = GpuAllocation.none();

  JobLauncher(String host, Path blobs) {
    this(host, blobs, options(System.getenv(OPTIONS_ENV)));
  }

  /** @param extraOptions JVM options added to every job process's command */
  JobLauncher(String host, Path blobs, List<String> extraOptions) {
    this.extraOptions = List.copyOf(extraOptions);
    this.passedEnv = JobEnvironment.passed(System.getenv());
    this.setsid = SETSID.stream().filter(Files::isExecutable).map(Path::toString).findFirst();
    this.javaBinary = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    this.host = host;
    this.blobs = blobs;
  }

  /** The job's class path and its class-data archive, made once. */
  private synchronized JobArchive archive() {
    if (archive == null) {
      JobClassPath paths = JobClassPath.of(ClassPaths.current(), location(JobMain.class).orElse(null), codeSources());
      classpath = JobClassPath.join(paths.own());
      libraries = JobClassPath.join(paths.libraries());
      archive = new JobArchive(blobs.resolveSibling("cds"), javaBinary, classpath);
    }
    return archive;
  }

  /**
   * The worker's class path (launcher manifests expanded), with the jars of {@code first} moved to
   * its front. The JVM opens class-path jars in order until it finds a class and keeps the central
   * directory of each jar it opened on its heap: with a job's own jars behind Hazelcast, Netty and
   * Bouncy Castle (as in the launcher jar's manifest), an idle job held every jar of the
   * installation open, several MB. The jars are the same, so user code sees the same classes.
   */
  static List<Path> jobClassPath(List<Path> entries, List<Path> first) {
    LinkedHashSet<Path> ordered = new LinkedHashSet<>();
    for (Path p : first) {
      if (entries.contains(p)) {
        ordered.add(p);
      }
    }
    ordered.addAll(entries);
    return List.copyOf(ordered);
  }

  private static boolean knows(String vmOption) {
    try {
      ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).getVMOption(vmOption);
      return true;
    } catch (IllegalArgumentException | UnsupportedOperationException | NullPointerException e) {
      return false;
    }
  }

  /** Where the classes of {@link #JOB_CODE} come from (a jar, or a class folder in a build). */
  private static List<Path> codeSources() {
    List<Path> out = new ArrayList<>();
    for (Class<?> c : JOB_CODE) {
      location(c).ifPresent(out::add);
    }
    return out;
  }

  private static Optional<Path> location(Class<?> c) {
    try {
      CodeSource source = c.getProtectionDomain().getCodeSource();
      if (source != null && source.getLocation() != null) {
        return Optional.of(Path.of(source.getLocation().toURI()).toAbsolutePath().normalize());
      }
    } catch (URISyntaxException | IllegalArgumentException | SecurityException e) {
      // an unusual class loader: that jar keeps its place
    }
    return Optional.empty();
  }

  void codeCacheMaxBytes(long max) {
    codeCacheMaxBytes = max;
  }

  void gpuAllocation(GpuAllocation allocation) {
    gpuAllocation = allocation;
  }

  void logMaxBytes(long max) {
    logMaxBytes = max;
  }

  /** Makes the class-data archive of job processes if the host has none yet (blocking). */
  void prepareArchive() {
    archive().prepare(javaBinary, jobClassPath(), blobs);
  }

  private synchronized String jobClassPath() {
    archive();
    return classpath;
  }

  private synchronized String libraries() {
    archive();
    return libraries;
  }

  /** A job JVM just started, and what carries its output to its log. */
  record Started(Process process, JobOutput output) {}

  /**
   * Starts the process and writes its secrets to its standard input ({@link #secrets}), which
   * then closes: they are never on its command line nor in its environment. Blocks; changes nothing
   * of {@code job} (its verticle takes what this returns, on the worker's context).
   */
  Started start(JobProcess job, int controlPort) throws IOException {
    PrivatePaths.createDirectories(job.workDir());
    PrivatePaths.createFileIfAbsent(job.log()); // 0600 before the process appends to it
    String secrets = secrets(job);
    Process p = command(job, controlPort).start();
    JobOutput output;
    try {
      output = JobOutput.start(p.getInputStream(), job.log(), logMaxBytes, job.slot());
    } catch (IOException e) {
      p.destroyForcibly();
      throw new IOException("could not open the log " + job.log() + " of a new job process: " + e.getMessage(), e);
    }
    try (OutputStream in = p.getOutputStream()) {
      in.write(secrets.getBytes(StandardCharsets.US_ASCII));
    } catch (IOException e) {
      p.destroyForcibly();
      throw new IOException("could not hand its secrets to a new job process: " + e.getMessage(), e);
    }
    return new Started(p, output);
  }

  /**
   * What a job process reads on its standard input: its control secret, then {@code plain} or its
   * data port's TLS identity (a fresh key for this process alone).
   */
  static String secrets(JobProcess job) {
    return job.secret().hex() + "\n" + (job.encryptData() ? JobKeys.tlsLine() : "plain") + "\n";
  }

  /** The process as it will be started: command line, environment, working directory and output. */
  ProcessBuilder command(JobProcess job, int controlPort) {
    List<String> cmd = new ArrayList<>();
    // setsid execs the JVM in place (it is not a group leader), so the pid stays the JVM's
    setsid.ifPresent(cmd::add);
    cmd.add(javaBinary);
    cmd.add("-XX:+DisableAttachMechanism");
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-Xms8m");
    // grow the heap eagerly under load (large arrays would otherwise cost a full GC per call)
    // while an idle job keeps a small one: with 50, a job whose heap had settled at 24 MB during a
    // run of small arrays never grew again and ran a full collection for every large argument after;
    // 75 costs no idle resident memory (committed heap that nothing touches is not resident)
    cmd.add("-XX:MinHeapFreeRatio=75");
    cmd.add("-XX:MaxHeapFreeRatio=90");
    // half the heap young, so that once it has grown an 8 MB array fits in eden and dies in a young
    // collection: with the default third, a job whose live heap is small stayed small and ran a full
    // collection for every large argument
    cmd.add("-XX:NewRatio=1");
    cmd.add("-Xss512k");
    cmd.add("-XX:+ExitOnOutOfMemoryError");
    cmd.addAll(CRYPTO_JIT);
    if (TRIM_NATIVE_HEAP) {
      // give back to the OS what C libraries freed (the JIT's arenas above all): about 4 MB of an idle job
      cmd.add("-XX:TrimNativeHeapInterval=" + TRIM_INTERVAL_MS);
    }
    if (job.memoryLimitMb() > 0) {
      cmd.add("-Xmx" + heapMb(job.memoryLimitMb()) + "m");
    }
    if (!job.warmUp()) {
      // a process needed at once starts from the archive (about twice as fast); warm-pool
      // processes do not use it: measured here, their first actor was then created more slowly
      cmd.addAll(archive().options());
    }
    cmd.addAll(extraOptions);
    cmd.add("-cp");
    cmd.add(jobClassPath());
    cmd.add("org.parl.job.JobMain");
    cmd.addAll(List.of("--worker", "127.0.0.1:" + controlPort, "--slot", job.slot(), "--host", host,
        "--blobs", blobs.toString(), "--warm-up", String.valueOf(job.warmUp()),
        "--code-cache-max-bytes", String.valueOf(codeCacheMaxBytes)));
    if (job.memoryLimitMb() > 0) {
      cmd.addAll(List.of("--memory-limit-mb", String.valueOf(job.memoryLimitMb())));
    }
    List<String> uuids = gpuAllocation.uuids(job.gpus());
    if (!uuids.isEmpty()) {
      // not a secret; the job's environment holds no PARL_* variable, so it comes on the command line
      cmd.addAll(List.of("--gpu-uuids", String.join(",", uuids)));
    }
    if (!libraries().isEmpty()) {
      cmd.addAll(List.of("--libraries", libraries()));
    }
    ProcessBuilder pb = new ProcessBuilder(cmd)
        .directory(job.workDir().toFile())
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.PIPE) // into its log through the worker, capped (JobOutput)
        .redirectInput(ProcessBuilder.Redirect.PIPE);
    JobEnvironment.apply(pb.environment(), passedEnv, gpuAllocation.visibleDevices(job.gpus()));
    return pb;
  }

  /** The options in the value of {@value #OPTIONS_ENV}: separated by white space, none when unset or blank. */
  static List<String> options(String value) {
    return value == null || value.isBlank() ? List.of() : List.of(value.trim().split("\\s+"));
  }

  /** The heap gets most of the limit; the rest is left to metaspace, code and thread stacks. */
  static int heapMb(int limitMb) {
    return Math.max(16, limitMb - Math.max(48, limitMb / 4));
  }
}
