package org.parl.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The job processes alive on this machine, as the kernel shows them in {@code /proc}: which
 * PARL_HOME started them (read from their command line), which GPUs they see and which network namespace (simulated host) they
 * run in. Read by pid, never by name matching against other users' processes: only processes
 * running {@code org.parl.job.JobMain} are looked at.
 */
public final class JobProcesses {

  /** One live job process: its pid, PARL_HOME, {@code CUDA_VISIBLE_DEVICES} and network namespace. */
  public record Job(long pid, String parlHome, List<String> gpus, String netns) {}

  private JobProcesses() {}

  /** The live job processes started under {@code parlHome} (by any of its nodes). */
  public static List<Job> of(Path parlHome) {
    String home = parlHome.toAbsolutePath().toString();
    return all(j -> home.equals(j.parlHome()));
  }

  /** The live job processes running in network namespace {@code netns} (see {@link #netns(long)}). */
  public static List<Job> in(String netns) {
    return all(j -> netns.equals(j.netns()));
  }

  /** The live job processes that descend from process {@code pid} (a worker's jobs). */
  public static List<Job> under(long pid) {
    List<Job> out = new ArrayList<>();
    ProcessHandle.of(pid).ifPresent(p -> p.descendants().forEach(d -> read(d.pid()).ifPresent(out::add)));
    return out;
  }

  /** The job process {@code pid}, as its {@code /proc} entry shows it now (empty once it ended). */
  public static Optional<Job> job(long pid) {
    return read(pid);
  }

  /**
   * What {@code pid} is, for a failure message: its parent, the program it runs and the slot its
   * worker gave it (from its command line), or that it is gone.
   */
  public static String describe(long pid) {
    try {
      List<String> args = Arrays.asList(cmdline(pid).split("\0"));
      int slot = args.indexOf("--slot");
      return pid + " (parent " + ProcessHandle.of(pid).flatMap(ProcessHandle::parent).map(ProcessHandle::pid).orElse(-1L)
          + ", runs " + Path.of(args.get(0)).getFileName() + ", slot " + (slot >= 0 && slot + 1 < args.size() ? args.get(slot + 1) : "?")
          + ")";
    } catch (IOException | RuntimeException e) {
      return pid + " (gone)";
    }
  }

  /** The GPU ids that two or more of {@code jobs} see, with their pids. */
  public static Map<String, List<Long>> sharedGpus(List<Job> jobs) {
    Map<String, List<Long>> byGpu = new HashMap<>();
    for (Job j : jobs) {
      j.gpus().forEach(g -> byGpu.computeIfAbsent(g, x -> new ArrayList<>()).add(j.pid()));
    }
    byGpu.values().removeIf(pids -> pids.size() < 2);
    return byGpu;
  }

  private static List<Job> all(Predicate<Job> which) {
    List<Job> out = new ArrayList<>();
    ProcessHandle.allProcesses().forEach(p -> read(p.pid()).filter(which).ifPresent(out::add));
    return out;
  }

  private static Optional<Job> read(long pid) {
    Path proc = Path.of("/proc", String.valueOf(pid));
    try {
      String cmdline = cmdline(pid);
      if (!Arrays.asList(cmdline.split("\0")).contains("org.parl.job.JobMain") || isZombie(proc) || forkOfAJob(pid, cmdline)) {
        return Optional.empty();
      }
      Map<String, String> env = new HashMap<>();
      for (String kv : new String(Files.readAllBytes(proc.resolve("environ")), StandardCharsets.UTF_8).split("\0")) {
        int eq = kv.indexOf('=');
        if (eq > 0) {
          env.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
      }
      String cvd = env.getOrDefault("CUDA_VISIBLE_DEVICES", "");
      List<String> gpus = cvd.isBlank() ? List.of() : List.of(cvd.split(","));
      // a job's environment holds no PARL_ variable: its PARL_HOME is where its shipped-code cache is ($PARL_HOME/code)
      List<String> args = Arrays.asList(cmdline.split("\0"));
      int blobs = args.indexOf("--blobs");
      String home = blobs >= 0 && blobs + 1 < args.size() ? String.valueOf(Path.of(args.get(blobs + 1)).getParent()) : "";
      return Optional.of(new Job(pid, home, gpus, netns(pid).orElse("?")));
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // ended meanwhile
    }
  }

  private static String cmdline(long pid) throws IOException {
    return new String(Files.readAllBytes(Path.of("/proc", String.valueOf(pid), "cmdline")), StandardCharsets.UTF_8);
  }

  /**
   * Whether {@code pid} is a job JVM's child that runs no program of its own yet: between its fork
   * and its exec (the JDK starts a subprocess through {@code posix_spawn}) it shows its parent's
   * command line and environment, but it is that same job, not a second job process. (A job
   * process's own parent is its worker.)
   */
  private static boolean forkOfAJob(long pid, String cmdline) {
    return ProcessHandle.of(pid).flatMap(ProcessHandle::parent).map(parent -> {
      try {
        return cmdline.equals(cmdline(parent.pid()));
      } catch (IOException e) {
        return false;
      }
    }).orElse(false);
  }

  private static boolean isZombie(Path proc) throws IOException {
    String stat = Files.readString(proc.resolve("stat"));
    int close = stat.lastIndexOf(')');
    return close > 0 && stat.length() > close + 2 && stat.charAt(close + 2) == 'Z';
  }

  /** The network namespace of a live process, as {@code net:[inode]}. */
  public static Optional<String> netns(long pid) {
    try {
      return Optional.of(Files.readSymbolicLink(Path.of("/proc", String.valueOf(pid), "ns", "net")).toString());
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
