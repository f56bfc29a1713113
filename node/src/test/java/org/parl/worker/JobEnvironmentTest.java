package org.parl.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A job gets an allow-list of the worker's environment, never a PARL_ variable, and its own GPUs. */
class JobEnvironmentTest {

  private static final Map<String, String> WORKER = Map.of("PATH", "/usr/bin", "HOME", "/home/lab", "LC_ALL", "C",
      "PARL_TOKEN", "secret", "PARL_TOKEN_FILE", "/home/lab/.parl/token", "PARL_HOME", "/home/lab/.parl",
      "AWS_SECRET_ACCESS_KEY", "k", "CUDA_VISIBLE_DEVICES", "0,1,2,3", "OMP_NUM_THREADS", "4");

  @Test
  void onlyTheAllowListAndTheJobsGpus() {
    Map<String, String> env = new HashMap<>(Map.of("LEFTOVER", "x"));
    JobEnvironment.apply(env, JobEnvironment.passed(WORKER), List.of(2));
    assertEquals(Map.of("PATH", "/usr/bin", "HOME", "/home/lab", "LC_ALL", "C", "CUDA_VISIBLE_DEVICES", "2",
        "CUDA_DEVICE_ORDER", "PCI_BUS_ID"), env);
  }

  @Test
  void aCpuJobSeesNoGpuWhateverTheWorkerInherited() {
    Map<String, String> env = new HashMap<>();
    JobEnvironment.apply(env, JobEnvironment.passed(WORKER), List.of());
    assertEquals("", env.get("CUDA_VISIBLE_DEVICES"));
  }

  @Test
  void theOperatorMayLetMoreThrough() {
    Map<String, String> worker = new HashMap<>(WORKER);
    worker.put(JobEnvironment.EXTRA_ENV, "OMP_NUM_THREADS, NOT_SET");
    Map<String, String> passed = JobEnvironment.passed(worker);
    assertEquals("4", passed.get("OMP_NUM_THREADS"));
    assertEquals(null, passed.get("PARL_TOKEN"));
  }

  @Test
  void butNeverAParlVariable() {
    Map<String, String> worker = new HashMap<>(WORKER);
    worker.put(JobEnvironment.EXTRA_ENV, "OMP_NUM_THREADS,PARL_TOKEN");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JobEnvironment.passed(worker));
    assertEquals("PARL_JOB_ENV names PARL_TOKEN: variables named PARL_* are never passed to jobs", e.getMessage());
  }
}
