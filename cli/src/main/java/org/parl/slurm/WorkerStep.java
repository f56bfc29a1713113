package org.parl.slurm;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.parl.command.TimedCommand;
import org.parl.internal.security.ClusterToken;
import org.parl.node.NodeFailure;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code srun} step that runs one {@code parl worker --slurm} on every node of the allocation,
 * each lending what Slurm bound to it there. The step overlaps the allocation's other steps
 * ({@code --overlap}), so the user's own {@code srun} steps still get their CPUs and GPUs. The workers
 * find the token through {@code PARL_TOKEN_FILE} in the step's environment; the step's output goes to
 * the job's output.
 *
 * <p>{@link #stop()} signals the workers (SIGTERM through {@code scancel --signal}, so each stops its
 * jobs and leaves the cluster), then ends {@code srun}, forcibly if it overruns.
 */
public final class WorkerStep {

  private static final Logger log = LoggerFactory.getLogger(WorkerStep.class);
  /** The step's name inside the job, to find its id for {@code scancel}. */
  static final String STEP_NAME = "parl-workers";
  static final long GRACEFUL_S = 30;
  static final long FORCED_S = 15;
  private static final Duration GRACEFUL = Duration.ofSeconds(GRACEFUL_S);
  private static final Duration FORCED = Duration.ofSeconds(FORCED_S);

  private final String jobId;
  private final Process srun;

  private WorkerStep(String jobId, Process srun) {
    this.jobId = jobId;
    this.srun = srun;
  }

  /**
   * Starts {@code srun} with one worker task per node.
   *
   * @param worker the command of one worker: {@code java ... -jar parl.jar worker --slurm --address ...}
   * @throws NodeFailure when {@code srun} cannot be started
   */
  public static WorkerStep start(String jobId, int nodes, List<String> worker, Path tokenFile) {
    List<String> cmd = new ArrayList<>(List.of("srun", "--overlap", "--nodes=" + nodes, "--ntasks=" + nodes,
        "--ntasks-per-node=1", "--job-name=" + STEP_NAME, "--kill-on-bad-exit=0"));
    cmd.addAll(worker);
    ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO().redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    Map<String, String> env = pb.environment();
    env.remove(ClusterToken.TOKEN_ENV);
    env.put(ClusterToken.TOKEN_FILE_ENV, tokenFile.toString());
    try {
      return new WorkerStep(jobId, pb.start());
    } catch (IOException e) {
      throw new NodeFailure("cannot start the workers' step with srun (" + e.getMessage() + "): is Slurm's srun on "
          + "the PATH?");
    }
  }

  /** The {@code srun} process, whose end means the workers are gone. */
  public ProcessHandle process() {
    return srun.toHandle();
  }

  /** Whether {@code srun} still runs. */
  public boolean running() {
    return srun.isAlive();
  }

  /**
   * Stops the workers and waits for {@code srun} to end: SIGTERM to the step's tasks (each worker stops
   * its jobs and leaves), then, if {@code srun} overruns {@value #GRACEFUL_S} s, SIGTERM to {@code srun},
   * which makes Slurm kill the step, and SIGKILL after {@value #FORCED_S} s more.
   */
  public void stop() {
    if (!srun.isAlive()) {
      return;
    }
    stepId().ifPresentOrElse(this::signalStep, () -> log.info("the workers' step is not listed by squeue; ending srun"));
    if (awaitExit(GRACEFUL)) {
      log.info("stopped: the workers' step (srun exit {})", srun.exitValue());
      return;
    }
    log.warn("the workers did not stop within {} s; ending their step", GRACEFUL.toSeconds());
    srun.destroy();
    if (!awaitExit(FORCED)) {
      srun.destroyForcibly();
      awaitExit(FORCED);
    }
  }

  private boolean awaitExit(Duration d) {
    try {
      srun.onExit().get(d.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      return !srun.isAlive();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !srun.isAlive();
    }
  }

  /** The id ({@code JOB.STEP}) of this job's step named {@value #STEP_NAME}, from {@code squeue --steps}. */
  private Optional<String> stepId() {
    TimedCommand.Outcome out;
    try {
      out = TimedCommand.run(List.of("squeue", "--steps", "--noheader", "--jobs=" + jobId, "--format=%i %j"),
          SlurmNodes.DEADLINE);
    } catch (IOException | TimeoutException e) {
      log.warn("cannot list the job's steps with squeue: {}", e.getMessage());
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
    return stepOf(out.output(), STEP_NAME);
  }

  /** The id of the step named {@code name} in lines of {@code squeue --steps --format="%i %j"}. */
  static Optional<String> stepOf(String squeue, String name) {
    return squeue.lines().map(String::strip).map(l -> l.split("\\s+"))
        .filter(f -> f.length == 2 && f[1].equals(name)).map(f -> f[0]).findFirst();
  }

  private void signalStep(String step) {
    log.info("stopping the workers: SIGTERM to step {}", step);
    try {
      TimedCommand.Outcome out = TimedCommand.run(List.of("scancel", "--signal=TERM", step), SlurmNodes.DEADLINE);
      if (out.exitCode() != 0) {
        // the job may be ending already (scancel, time limit): its steps are then being ended by Slurm
        log.info("scancel --signal=TERM {} answered (exit {}): {}", step, out.exitCode(), out.output().strip());
      }
    } catch (IOException | TimeoutException e) {
      log.warn("cannot signal the workers' step {}: {}", step, e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
