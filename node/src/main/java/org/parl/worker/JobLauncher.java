package org.parl.worker;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.parl.limits.LimitSettings;

/**
 * Builds and starts the command of a job process: a plain JVM (no Hazelcast, none of its flags)
 * with the exact GPU environment set before it starts, a heap limit when the actor has a memory
 * limit, its own working directory, its output appended to its log file, and its secrets on its
 * standard input.
 *
 * <p>Starting a process blocks briefly (fork/exec): call it off the event loop.
 */
final class JobLauncher {

  /** Extra JVM options for every job process, from the worker's environment (profiling, GC logs). */
  static final String OPTIONS_ENV = "PARL_JOB_JAVA_OPTS";

  /** Exit status of a JVM stopped by {@code -XX:+ExitOnOutOfMemoryError}. */
  static final int OOM_EXIT = 3;

  private final String javaBinary;
  private final String classpath;
  private final String host;
  private final Path blobs;
  private final List<String> extraOptions;
  private final JobArchive archive;
  /** The host's shipped-code cache cap that job processes enforce (SPEC §8); set once the limits are read. */
  private volatile long codeCacheMaxBytes = LimitSettings.DEFAULTS.codeCacheMaxBytes();

  JobLauncher(String host, Path blobs) {
    this(host, blobs, options(System.getenv(OPTIONS_ENV)));
  }

  /** @param extraOptions JVM options added to every job process's command */
  JobLauncher(String host, Path blobs, List<String> extraOptions) {
    this.extraOptions = List.copyOf(extraOptions);
    this.javaBinary = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    this.classpath = System.getProperty("java.class.path");
    this.host = host;
    this.blobs = blobs;
    this.archive = new JobArchive(blobs.resolveSibling("cds"), javaBinary, classpath);
  }

  void codeCacheMaxBytes(long max) {
    codeCacheMaxBytes = max;
  }

  /** Makes the class-data archive of job processes if the host has none yet (blocking). */
  void prepareArchive() {
    archive.prepare(javaBinary, classpath, blobs);
  }

  /**
   * Starts the process and writes its secrets to its standard input ({@link #secrets}), which
   * then closes: they are never on its command line nor in its environment.
   */
  Process start(JobProcess job, int controlPort) throws IOException {
    Files.createDirectories(job.workDir);
    Files.createDirectories(job.log.getParent());
    String secrets = secrets(job);
    Process p = command(job, controlPort).start();
    try (OutputStream in = p.getOutputStream()) {
      in.write(secrets.getBytes(StandardCharsets.US_ASCII));
    } catch (IOException e) {
      p.destroyForcibly();
      throw new IOException("could not hand its secrets to a new job process: " + e.getMessage(), e);
    }
    return p;
  }

  /**
   * What a job process reads on its standard input: its control secret, then {@code plain} or its
   * data port's TLS identity (a fresh key for this process alone).
   */
  static String secrets(JobProcess job) {
    return job.secret.hex() + "\n" + (job.encryptData ? JobKeys.tlsLine() : "plain") + "\n";
  }

  /** The process as it will be started: command line, environment, working directory and output. */
  ProcessBuilder command(JobProcess job, int controlPort) {
    List<String> cmd = new ArrayList<>();
    cmd.add(javaBinary);
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-Xms8m");
    // grow the heap eagerly under load (large arrays would otherwise cost a full GC per call)
    // while an idle job keeps a small one
    cmd.add("-XX:MinHeapFreeRatio=50");
    cmd.add("-XX:MaxHeapFreeRatio=90");
    cmd.add("-Xss512k");
    cmd.add("-XX:+ExitOnOutOfMemoryError");
    if (job.memoryLimitMb > 0) {
      cmd.add("-Xmx" + heapMb(job.memoryLimitMb) + "m");
    }
    if (!job.warmUp) {
      // a process needed at once starts from the archive (about twice as fast); warm-pool
      // processes do not use it: measured here, their first actor was then created more slowly
      cmd.addAll(archive.options());
    }
    cmd.addAll(extraOptions);
    cmd.add("-cp");
    cmd.add(classpath);
    cmd.add("org.parl.job.JobMain");
    cmd.addAll(List.of("--worker", "127.0.0.1:" + controlPort, "--slot", job.slot, "--host", host,
        "--blobs", blobs.toString(), "--warm-up", String.valueOf(job.warmUp),
        "--code-cache-max-bytes", String.valueOf(codeCacheMaxBytes)));
    ProcessBuilder pb = new ProcessBuilder(cmd)
        .directory(job.workDir.toFile())
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(job.log.toFile()))
        .redirectInput(ProcessBuilder.Redirect.PIPE);
    Map<String, String> env = pb.environment();
    env.put("CUDA_VISIBLE_DEVICES", job.gpus.stream().map(String::valueOf).collect(Collectors.joining(",")));
    env.put("CUDA_DEVICE_ORDER", "PCI_BUS_ID");
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
