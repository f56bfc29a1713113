package org.parl.worker;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.parl.internal.wire.gateway.Job;

/**
 * The worker's registry of its job processes and their {@link JobVerticle}s: the live ones by slot,
 * and the ones that hosted a job by job id, kept a while after they ended (their state, cause and
 * log stay readable in the monitor). It changes no process's state: it tells the process what happened.
 * Touched only on the worker verticle's context.
 */
final class JobTable {

  /** Ended jobs kept at most, oldest dropped first. */
  private static final int HISTORY = 1_000;

  private final Map<String, JobProcess> live = new LinkedHashMap<>();
  private final Map<String, JobProcess> byJob = new LinkedHashMap<>();

  void add(JobProcess p) {
    live.put(p.slot(), p);
  }

  /** The live process of a slot, or null. */
  JobProcess live(String slot) {
    return live.get(slot);
  }

  /** The process has ended: it is no longer live, but its job stays in the history. */
  void ended(JobProcess p) {
    live.remove(p.slot());
  }

  /** Binds a process to the job the master placed on it. */
  void reserve(JobProcess p, Job job) {
    p.placed(job);
    byJob.put(job.jobId(), p);
    trimHistory();
  }

  Stream<JobProcess> live() {
    return live.values().stream();
  }

  Optional<JobProcess> job(String jobId) {
    return Optional.ofNullable(byJob.get(jobId));
  }

  List<JobProcess> jobs() {
    return new ArrayList<>(byJob.values());
  }

  private void trimHistory() {
    var it = byJob.entrySet().iterator();
    while (byJob.size() > HISTORY && it.hasNext()) {
      if (it.next().getValue().state() == JobProcess.State.ENDED) {
        it.remove();
      }
    }
  }
}
