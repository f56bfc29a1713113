package org.parl.master;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.parl.control.ClusterType;
import org.parl.control.JobCenterRequest.RegisterWorker;
import org.parl.internal.wire.gateway.Job;

/**
 * How a new active master rebuilds the JobCenter (docs/contract.md §10), without Vert.x: from the workers'
 * reports of what they run (the truth about their processes) and the cluster maps the previous
 * active master wrote (what to expect, and what to tell clients they lost).
 *
 * <ul>
 *   <li>a reported job whose resources are free on its worker is adopted as it runs;
 *   <li>a reported job that conflicts (a GPU another job holds, a GPU the worker does not lend, an id
 *       held twice) is refused: its worker stops it;
 *   <li>a job in the maps that no worker reports is released: its client is told it was lost;
 *   <li>a worker in the maps that did not report is dropped (its member is gone, or it did not answer
 *       in time: it then fences itself, docs/contract.md §7).
 * </ul>
 * Job numbers go on past every id either side knew, with a margin for grants the previous master
 * made in its last moments and never published.
 */
public final class Rebuild {

  /** Job numbers skipped after the highest one known. */
  static final long JOB_NUMBER_GAP = 1_000;

  /**
   * The rebuilt JobCenter and what must be done about the differences.
   *
   * @param registrations each reporting worker's outcome, by worker id (absent when refused)
   * @param refused reporting workers the pool could not take, with why
   * @param released jobs in the maps that no worker runs
   * @param dropped workers in the maps that did not report
   */
  public record Rebuilt<H>(JobCenter<H> center, Map<String, JobCenter.Registration<H>> registrations,
      Map<String, String> refused, List<Job> released, List<String> dropped) {}

  private Rebuild() {}

  /**
   * @param mappedWorkers worker ids in the workers map
   * @param mappedJobs the jobs map's records
   * @param reports the workers' registrations with their jobs, in arrival order
   */
  public static <H> Rebuilt<H> run(ClusterType type, int maxGpusPerActor, int maxWaitingPerClient,
      Set<String> mappedWorkers, Collection<Job> mappedJobs, List<RegisterWorker> reports) {
    long highest = 0;
    for (Job j : mappedJobs) {
      highest = Math.max(highest, JobCenter.jobNumber(j.jobId()));
    }
    for (RegisterWorker w : reports) {
      for (Job j : w.jobs()) {
        highest = Math.max(highest, JobCenter.jobNumber(j.jobId()));
      }
    }
    JobCenter<H> center = new JobCenter<>(type, maxGpusPerActor, maxWaitingPerClient, highest + JOB_NUMBER_GAP + 1);
    Map<String, JobCenter.Registration<H>> registrations = new LinkedHashMap<>();
    Map<String, String> refused = new LinkedHashMap<>();
    for (RegisterWorker w : reports) {
      try {
        registrations.put(w.workerId(), center.register(w));
      } catch (Rejected r) {
        refused.put(w.workerId(), r.getMessage());
      }
    }
    List<Job> released = new ArrayList<>();
    for (Job j : mappedJobs) {
      if (center.job(j.jobId()).isEmpty()) {
        released.add(j);
      }
    }
    List<String> dropped = new ArrayList<>();
    for (String id : mappedWorkers) {
      if (center.worker(id).isEmpty()) {
        dropped.add(id);
      }
    }
    return new Rebuilt<>(center, registrations, refused, released, dropped);
  }
}
