package org.parl.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.parl.control.ClusterType;
import org.parl.control.JobCenterRequest.Allocate;
import org.parl.control.JobCenterRequest.RegisterWorker;
import org.parl.internal.wire.gateway.Job;

/**
 * {@link Rebuild} (docs/contract.md §10) against maps and worker reports that disagree in every way: jobs the
 * maps lack, jobs only the maps have, stale GPU lists, workers missing on either side, and reports
 * that conflict (a GPU two jobs claim, a GPU the worker does not lend, a job id two workers claim, a
 * job reported under another worker). Whatever the mix, the rebuilt pool passes its invariant, holds
 * exactly the valid jobs the workers run, refuses every conflicting one, and releases or drops what
 * only the maps knew.
 */
class RebuildTest {

  private static final int ROUNDS = 2_000;

  /** One random situation: the truth on the workers, what they report, and what the maps say. */
  private static final class Situation {
    final ClusterType type;
    final List<RegisterWorker> reports = new ArrayList<>();
    /** Per reporting worker, the jobs that really run there without conflict: all must be adopted (earlier reports' jobs first). */
    final Map<String, List<Job>> valid = new HashMap<>();
    /** Per reporting worker, the conflicting jobs it reports after its valid ones: all must be refused. */
    final Map<String, List<Job>> conflicting = new HashMap<>();
    final Set<String> mappedWorkers = new LinkedHashSet<>();
    final List<Job> mappedJobs = new ArrayList<>();
    long highestJob;

    Situation(Random r) {
      type = r.nextInt(4) == 0 ? ClusterType.CPU : ClusterType.GPU;
      int workers = 1 + r.nextInt(6);
      long jobNumber = 1 + r.nextInt(50);
      List<Job> everyValid = new ArrayList<>();
      for (int w = 0; w < workers; w++) {
        String id = "w-" + w;
        boolean reports = r.nextInt(6) != 0;
        List<Integer> lent = new ArrayList<>();
        for (int g = 0; g < 8; g++) {
          if (r.nextBoolean()) {
            lent.add(g);
          }
        }
        if (type == ClusterType.GPU && lent.isEmpty()) {
          lent.add(r.nextInt(8));
        }
        int cpus = type == ClusterType.CPU ? 1 + r.nextInt(8) : 0;
        List<Job> jobs = new ArrayList<>();
        List<Integer> free = new ArrayList<>(type == ClusterType.GPU ? lent : List.of());
        int freeCpus = cpus;
        int n = r.nextInt(4);
        for (int j = 0; j < n; j++) {
          jobNumber += 1 + r.nextInt(3);
          String jobId = "job-" + jobNumber;
          if (type == ClusterType.GPU && !free.isEmpty()) {
            int k = 1 + r.nextInt(free.size());
            List<Integer> gpus = new ArrayList<>(new TreeSet<>(free.subList(0, k)));
            free.removeAll(gpus);
            jobs.add(job(jobId, id, 0, gpus));
          } else if (type == ClusterType.CPU && freeCpus > 0) {
            int k = 1 + r.nextInt(freeCpus);
            freeCpus -= k;
            jobs.add(job(jobId, id, k, List.of()));
          }
        }
        List<Job> bad = new ArrayList<>();
        if (!jobs.isEmpty() && r.nextInt(3) == 0) { // a second job on a held resource
          Job held = jobs.get(r.nextInt(jobs.size()));
          bad.add(job("job-" + (++jobNumber), id, type == ClusterType.CPU ? cpus + 1 : 0, held.gpus()));
        }
        if (type == ClusterType.GPU && r.nextInt(4) == 0) { // a GPU it does not lend
          bad.add(job("job-" + (++jobNumber), id, 0, List.of(8 + r.nextInt(4))));
        }
        if (r.nextInt(5) == 0) { // reported under another worker's name
          bad.add(job("job-" + (++jobNumber), "w-" + (w + 1), type == ClusterType.CPU ? 1 : 0,
              type == ClusterType.GPU ? List.of(lent.get(0)) : List.of()));
        }
        if (!everyValid.isEmpty() && r.nextInt(5) == 0) { // an id another worker's job has
          Job other = everyValid.get(r.nextInt(everyValid.size()));
          if (type == ClusterType.GPU && !free.isEmpty()) {
            bad.add(job(other.jobId(), id, 0, List.of(free.get(0))));
          } else if (type == ClusterType.CPU && freeCpus > 0) {
            bad.add(job(other.jobId(), id, 1, List.of()));
          }
        }
        if (reports) {
          everyValid.addAll(jobs);
          List<Job> reported = new ArrayList<>(jobs);
          reported.addAll(bad);
          this.reports.add(new RegisterWorker(id, "node-" + w, "host", "127.0.0.1", cpus, Math.max(cpus, 1), 0,
              type == ClusterType.GPU ? lent : List.of(), List.of(), reported));
          valid.put(id, jobs);
          conflicting.put(id, bad);
        }
        if (r.nextInt(5) != 0) {
          mappedWorkers.add(id);
        }
        for (Job j : jobs) {
          if (r.nextInt(4) != 0) { // the map has it, maybe with a stale GPU list
            mappedJobs.add(r.nextInt(5) == 0 && type == ClusterType.GPU ? job(j.jobId(), id, 0, List.of(r.nextInt(8))) : j);
          }
        }
      }
      for (int stale = r.nextInt(3); stale > 0; stale--) { // jobs only the maps know
        jobNumber += 1 + r.nextInt(5);
        mappedJobs.add(job("job-" + jobNumber, "w-" + r.nextInt(workers + 2), type == ClusterType.CPU ? 1 : 0,
            type == ClusterType.GPU ? List.of(r.nextInt(8)) : List.of()));
      }
      if (r.nextInt(4) == 0) {
        mappedWorkers.add("w-gone-" + r.nextInt(10));
      }
      highestJob = jobNumber;
    }

    private static Job job(String jobId, String workerId, int cpus, List<Integer> gpus) {
      return new Job(jobId, "c-1", workerId, "my.Actor", cpus, gpus, 0, 1L);
    }
  }

  @Test
  void anyDisagreementRebuildsToThePoolTheWorkersRun() {
    Random seeds = new Random(20261201L);
    for (int round = 0; round < ROUNDS; round++) {
      long seed = seeds.nextLong();
      Situation s = new Situation(new Random(seed));
      String where = "seed " + seed;
      Rebuild.Rebuilt<String> rebuilt = Rebuild.run(s.type, 8, 100, s.mappedWorkers, s.mappedJobs, s.reports);
      JobCenter<String> center = rebuilt.center();
      center.checkInvariants();

      Set<String> expected = new HashSet<>();
      for (RegisterWorker w : s.reports) {
        JobCenter.Registration<String> reg = rebuilt.registrations().get(w.workerId());
        assertTrue(reg != null, where + ": worker " + w.workerId() + " was refused: " + rebuilt.refused());
        for (Job j : s.valid.get(w.workerId())) {
          expected.add(j.jobId());
          Job held = center.job(j.jobId()).orElseThrow(() -> new AssertionError(where + ": " + j + " was not adopted"));
          assertEquals(w.workerId(), held.workerId(), where);
          assertEquals(j.gpus(), held.gpus(), where + ": the worker's GPUs win over the map's");
          assertEquals(j.cpus(), held.cpus(), where);
        }
        for (Job j : s.conflicting.get(w.workerId())) {
          assertTrue(reg.stop().containsKey(j.jobId()), where + ": conflicting " + j + " must be stopped, not " + reg);
        }
        assertEquals(s.conflicting.get(w.workerId()).size(), reg.stop().size(), where + ": only conflicts are stopped");
      }
      Set<String> inPool = new HashSet<>();
      center.jobs().forEach(j -> inPool.add(j.jobId()));
      assertEquals(expected, inPool, where + ": the pool holds exactly the valid jobs the workers run");

      Set<String> released = new HashSet<>();
      rebuilt.released().forEach(j -> released.add(j.jobId()));
      Set<String> mappedNotRun = new HashSet<>();
      s.mappedJobs.forEach(j -> mappedNotRun.add(j.jobId()));
      mappedNotRun.removeAll(inPool);
      assertEquals(mappedNotRun, released, where + ": what only the maps knew is released");
      Set<String> reported = new HashSet<>();
      s.reports.forEach(w -> reported.add(w.workerId()));
      Set<String> dropped = new HashSet<>(s.mappedWorkers);
      dropped.removeAll(reported);
      assertEquals(dropped, new HashSet<>(rebuilt.dropped()), where + ": mapped workers that did not report are dropped");

      if (center.workerCount() > 0) { // new jobs never reuse an id either side knew
        JobCenter.Submitted next = center.submit(new Allocate("c-2", s.type == ClusterType.CPU ? 1 : 0,
            s.type == ClusterType.GPU ? 1 : 0, 0, 0, "A", "m"), "x");
        next.job().ifPresent(j -> assertTrue(JobCenter.jobNumber(j.jobId()) > s.highestJob, where + ": " + j.jobId()));
        center.checkInvariants();
      }
    }
  }
}
