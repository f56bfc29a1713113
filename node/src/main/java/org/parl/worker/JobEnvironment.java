package org.parl.worker;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.parl.worker.gpu.GpuAllocation;

/**
 * The environment of a job process: an allow-list of the worker's variables, then the job's GPUs.
 * A job runs its actor's code, so it gets none of the worker's secrets (no {@code PARL_TOKEN}, no
 * {@code PARL_TOKEN_FILE}, nothing named {@code PARL_*}) and no stray launcher setting (a
 * {@code CUDA_VISIBLE_DEVICES} the worker inherited from Slurm or a shell is replaced, never passed).
 *
 * <p>Passed when the worker has them: {@link #ALLOWED} and names starting with {@code LC_}, plus
 * the names listed in the worker's {@value #EXTRA_ENV} (comma-separated, for what a lab's actors
 * need: {@code OMP_NUM_THREADS}, a license server); a {@code PARL_} name there is refused.
 */
final class JobEnvironment {

  /** Names of extra variables the operator lets through to jobs. */
  static final String EXTRA_ENV = "PARL_JOB_ENV";

  static final Set<String> ALLOWED = Set.of("PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TZ",
      "TMPDIR", "TERM", "JAVA_HOME", "LD_LIBRARY_PATH", "HOSTNAME");

  private JobEnvironment() {}

  /**
   * What every job of a worker gets from the worker's environment.
   *
   * @param worker the worker's environment
   * @throws IllegalArgumentException when {@value #EXTRA_ENV} names a {@code PARL_} variable
   */
  static Map<String, String> passed(Map<String, String> worker) {
    Set<String> extra = extraNames(worker.get(EXTRA_ENV));
    Map<String, String> env = new LinkedHashMap<>();
    worker.forEach((name, value) -> {
      if (!name.startsWith("PARL_") && (ALLOWED.contains(name) || name.startsWith("LC_") || extra.contains(name))) {
        env.put(name, value);
      }
    });
    return Map.copyOf(env);
  }

  /**
   * Sets a job's environment: {@code passed}, then its GPUs by index.
   *
   * @param gpus the job's GPU ids, empty for a CPU job (which then sees {@code CUDA_VISIBLE_DEVICES=""})
   */
  static void apply(Map<String, String> env, Map<String, String> passed, List<Integer> gpus) {
    apply(env, passed, gpus.stream().map(String::valueOf).collect(Collectors.joining(",")));
  }

  /**
   * Sets a job's environment: {@code passed}, then its GPUs.
   *
   * @param visibleDevices the value of {@code CUDA_VISIBLE_DEVICES} ({@link GpuAllocation}), "" for a CPU job
   */
  static void apply(Map<String, String> env, Map<String, String> passed, String visibleDevices) {
    env.clear();
    env.putAll(passed);
    env.put("CUDA_VISIBLE_DEVICES", visibleDevices);
    env.put("CUDA_DEVICE_ORDER", "PCI_BUS_ID");
  }

  /** The names in {@value #EXTRA_ENV}; a {@code PARL_} name is refused at once. */
  static Set<String> extraNames(String value) {
    if (value == null || value.isBlank()) {
      return Set.of();
    }
    Set<String> names = new LinkedHashSet<>(List.of(value.trim().split("\\s*,\\s*")));
    for (String n : names) {
      if (n.startsWith("PARL_")) {
        throw new IllegalArgumentException(EXTRA_ENV + " names " + n + ": variables named PARL_* are never passed to jobs");
      }
    }
    return names;
  }
}
