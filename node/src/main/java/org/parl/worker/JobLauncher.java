package org.parl.worker;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Builds and starts the command of a job process: a plain JVM (no Hazelcast, none of its flags)
 * with the exact GPU environment set before it starts, a heap limit when the actor has a memory
 * limit, its own working directory and its output appended to its log file.
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

  /** Makes the class-data archive of job processes if the host has none yet (blocking). */
  void prepareArchive() {
    archive.prepare(javaBinary, classpath, blobs);
  }

  Process start(JobProcess job, int controlPort) throws IOException {
    Files.createDirectories(job.workDir);
    Files.createDirectories(job.log.getParent());
    return command(job, controlPort).start();
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
        "--blobs", blobs.toString(), "--warm-up", String.valueOf(job.warmUp)));
    ProcessBuilder pb = new ProcessBuilder(cmd)
        .directory(job.workDir.toFile())
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(job.log.toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
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
