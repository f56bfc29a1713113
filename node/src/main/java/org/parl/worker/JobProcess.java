package org.parl.worker;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.net.NetSocket;
import java.nio.file.Path;
import java.util.List;
import org.parl.internal.security.SharedSecret;
import org.parl.internal.wire.JobControl;
import org.parl.internal.wire.gateway.Job;
import org.parl.job.tree.JobTree;
import org.parl.limits.WriteBound;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One job process as its worker sees it. A process is started either warm (generic, waiting for
 * an actor) or for a given job; it becomes ready when it connects back, and is assigned a job id
 * when an actor lands on it. A process whose actor was closed cleanly is taken back for the next
 * actor: it then continues as a new {@code JobProcess} (its {@link #successor()}), with a slot and
 * log of its own, in the same OS process, working directory and GPUs.
 *
 * <p>Its state changes only through the methods below, each named after what happened to the
 * process (started, became ready, ponged, placed, assigned, released, taken back, exited, ended,
 * killed...); everything else reads it. Each life has its {@link JobVerticle} ({@link #verticle()}),
 * its face on the event bus, which does what takes Vert.x: its job's address, killing its tree off
 * the event loop, handing over to the next life. All of it is used on the worker verticle's context.
 */
final class JobProcess {

  private static final Logger log = LoggerFactory.getLogger(JobProcess.class);

  /** RECYCLING: a process whose actor was closed, checking that it is clean before it is ready again. */
  enum State { STARTING, IDLE, ASSIGNED, RECYCLING, ENDED }

  private final String slot;
  private final List<Integer> gpus;
  private final int memoryLimitMb;
  /** Whether the process warms its code up before it is ready (warm pool), or is needed at once. */
  private final boolean warmUp;
  private final Path logFile;
  private final Path workDir;
  private final long startedAt = System.currentTimeMillis();
  private final Promise<JobProcess> ready = Promise.promise();
  /** Proves on the control port that a connection comes from this process (given to it on its standard input). */
  private final SharedSecret secret;
  /** Whether this is a process taken back after an earlier actor (it then writes to its own log when assigned). */
  private final boolean reused;
  /** Actors this OS process served before this life: its code for serving one is compiled (JIT) the more, the higher. */
  private final int actorsServed;
  /** Whether its data port speaks TLS (the cluster's {@code --encrypt-data}). */
  private final boolean encryptData;
  /** Completed when its control link closes, after which no last words can come. */
  private final Promise<Void> controlClosed = Promise.promise();
  /** Its face on the event bus. */
  private final JobVerticle verticle = new JobVerticle(this);

  private Process process;
  /** Its JVM and every process it started ({@link Containment}); null until it started. */
  private JobTree tree;
  /**
   * The life of this OS process before this one, while this one checks that it is clean for reuse:
   * that job's end (and so its resources) is reported only once the check passed or the process is gone.
   */
  private JobProcess pendingEnd;
  /** Carries the process's output into the log of the job it serves; shared by its successors. */
  private JobOutput output;
  private State state = State.STARTING;
  private NetSocket control;
  /** What the worker writes on {@link #control}, bounded: a process that does not read is disconnected. */
  private WriteBound controlOut;
  /**
   * What the job said when it became ready, last: its data port, and the secret it made for its client, who
   * proves it there (never logged); null until it is ready, and in a life taken back until it is ready again.
   */
  private JobControl.Ready lastReady;
  /** The job placed on it, with its resources (its GPU memory budget is held by {@code GpuMemoryWatch}); null while warm. */
  private Job job;
  private long lastPong = System.currentTimeMillis();
  /** Calls the process has served, as of its last pong. */
  private long calls;
  /** Why the worker killed it, if it did; read when the exit is reported. */
  private String killCause;
  /** Why the job stopped itself, when it said so on its control link (a payload it could not hold, say). */
  private String stopCause;
  /** Whether the process said it was exiting (any {@code System.exit}), which a JVM halted for OutOfMemoryError does not. */
  private boolean exitedItself;
  private String endCause;
  private Long endedAt;
  /** The same OS process serving the next actor, once this one's actor was closed and the process taken back. */
  private JobProcess successor;

  JobProcess(String slot, List<Integer> gpus, int memoryLimitMb, boolean warmUp, Path log, Path workDir) {
    this(slot, gpus, memoryLimitMb, warmUp, log, workDir, false);
  }

  /** @param encryptData whether its data port speaks TLS */
  JobProcess(String slot, List<Integer> gpus, int memoryLimitMb, boolean warmUp, Path log, Path workDir, boolean encryptData) {
    this.encryptData = encryptData;
    this.slot = slot;
    this.gpus = List.copyOf(gpus);
    this.memoryLimitMb = memoryLimitMb;
    this.warmUp = warmUp;
    this.logFile = log;
    this.workDir = workDir;
    this.secret = SharedSecret.random();
    this.reused = false;
    this.actorsServed = 0;
  }

  /** The same process taken back for the next actor: recycling until it says ready again. */
  private JobProcess(JobProcess previous, String slot, Path log) {
    this.slot = slot;
    this.gpus = previous.gpus;
    this.memoryLimitMb = previous.memoryLimitMb;
    this.warmUp = previous.warmUp;
    this.logFile = log;
    this.workDir = previous.workDir;
    this.secret = previous.secret;
    this.reused = true;
    this.actorsServed = previous.actorsServed + 1;
    this.encryptData = previous.encryptData;
    this.process = previous.process;
    this.tree = previous.tree;
    this.output = previous.output;
    this.control = previous.control;
    this.controlOut = previous.controlOut;
    this.state = State.RECYCLING;
    this.pendingEnd = previous;
  }

  // what happened to the process, in the order it usually happens

  /** Its JVM started, its output goes to its log, and its tree is tracked; one killed meanwhile is killed now. */
  void started(Process process, JobOutput output, JobTree tree) {
    this.process = process;
    this.output = output;
    this.tree = tree;
    if (killCause != null) {
      kill(killCause);
    }
  }

  /** Its JVM could not be started: this life is over before it began. */
  void failedToStart(String why) {
    endCause = "could not start a job process: " + why;
    state = State.ENDED;
    ready.tryFail(endCause);
  }

  /**
   * It proved itself on the control link and said ready with its data port and its client's secret.
   *
   * @param out what the worker writes on {@code control}, bounded
   */
  void becameReady(NetSocket control, WriteBound out, JobControl.Ready ready) {
    this.control = control;
    this.controlOut = out;
    readyFor(ready);
  }

  /** Its keep-alive; a recycling process still counts its previous actor's calls until it is ready again. */
  void ponged(long calls) {
    lastPong = System.currentTimeMillis();
    if (state != State.RECYCLING) {
      this.calls = calls;
    }
  }

  /** It said it exits by itself. */
  void saidExiting() {
    exitedItself = true;
  }

  /** It said it stops itself, and why (a cause its client reads). */
  void saidStopping(String cause) {
    exitedItself = true;
    if (cause != null && !cause.isBlank()) {
      stopCause = cause.length() > ControlServer.MAX_CAUSE ? cause.substring(0, ControlServer.MAX_CAUSE) + "..." : cause;
    }
  }

  /** Its control link closed: no last words can come any more. */
  void linkClosed() {
    controlClosed.tryComplete();
  }

  /** The master placed a job on it: from now on its verticle answers for that job on the job's address. */
  void placed(Job job) {
    this.job = job;
    verticle.answerFor(job);
  }

  /** It is told which job it runs (for its log) and serves that job's actor. */
  void assigned() {
    if (state == State.ENDED) {
      return; // it ended between its launch's answer and this
    }
    state = State.ASSIGNED;
    if (reused && output != null) {
      output.target(logFile); // all its output, native too, to its own log; its first actor's stays readable by that job's id
    }
    ControlServer.send(this, new JobControl.Assign(jobId(), job.clientId()));
    log.info("job {} of client {} runs in process {} (slot {}{})", jobId(), job.clientId(), pid(), slot,
        gpus.isEmpty() ? "" : ", CUDA_VISIBLE_DEVICES=" + gpus);
  }

  /** Its actor was closed, after serving {@code calls} calls. */
  void released(long calls) {
    this.calls = calls;
  }

  /**
   * The process is taken back for the next actor: this life (and its job) ends here, and the
   * process goes on as a new life, recycling, with a slot, log and verticle of its own, which
   * reports this life's end ({@link #takePendingEnd()}).
   */
  JobProcess takenBack(String nextSlot, Path nextLog) {
    successor = new JobProcess(this, nextSlot, nextLog);
    state = State.ENDED;
    endedAt = System.currentTimeMillis();
    endCause = "the actor was closed";
    verticle.handOver(successor);
    return successor;
  }

  /** A taken-back process proved clean and is ready for the next actor, with a fresh data port and credential. */
  void readyAgain(JobControl.Ready ready) {
    readyFor(ready);
  }

  private void readyFor(JobControl.Ready ready) {
    lastReady = ready;
    lastPong = System.currentTimeMillis();
    state = State.IDLE;
    this.ready.tryComplete(this);
  }

  /** The life before this one, whose end waited for this one's check (or its exit), once; null after. */
  JobProcess takePendingEnd() {
    JobProcess previous = pendingEnd;
    pendingEnd = null;
    return previous;
  }

  /** Its JVM ended; its end is reported once its tree is gone and its last words are read ({@link #ended}). */
  void exited() {
    state = State.ENDED;
    endedAt = System.currentTimeMillis();
  }

  /**
   * Its end is decided: the cause is the first kill's, else what it said, else its exit status.
   *
   * @return whether it ended abnormally (killed, or a non-zero status)
   */
  boolean ended(int code) {
    boolean abnormal = killCause != null || code != 0;
    endCause = ExitCause.of(this, code);
    ready.tryFail("the job process ended before it was ready: " + endCause + " (log: " + logFile + ")");
    if (control != null) {
      control.close();
    }
    return abnormal;
  }

  /**
   * Kills the process and every process it started; its end is reported with {@code cause} (the
   * first cause given, if several) once they are all gone. A life whose process already serves the
   * next actor is over, and is not killed.
   */
  void kill(String cause) {
    if (successor != null) {
      return;
    }
    if (killCause == null) {
      killCause = cause;
    }
    if (process != null) {
      process.destroyForcibly();
    }
    if (tree != null) {
      verticle.kill(tree);
    }
  }

  // what it is

  /** The incarnation of this OS process that is current: this one, or its latest successor. */
  JobProcess latest() {
    JobProcess p = this;
    while (p.successor != null) {
      p = p.successor;
    }
    return p;
  }

  JobVerticle verticle() {
    return verticle;
  }

  String slot() {
    return slot;
  }

  List<Integer> gpus() {
    return gpus;
  }

  /** Its actor's {@code maxMemoryMb}, 0 for none. */
  int memoryLimitMb() {
    return memoryLimitMb;
  }

  boolean warmUp() {
    return warmUp;
  }

  /** Its log file. */
  Path log() {
    return logFile;
  }

  Path workDir() {
    return workDir;
  }

  long startedAt() {
    return startedAt;
  }

  /** Completes with it when it can take an actor; fails when it ended before. */
  Future<JobProcess> whenReady() {
    return ready.future();
  }

  SharedSecret secret() {
    return secret;
  }

  boolean reused() {
    return reused;
  }

  int actorsServed() {
    return actorsServed;
  }

  boolean encryptData() {
    return encryptData;
  }

  /** Its JVM, or null until it started. */
  Process process() {
    return process;
  }

  long pid() {
    return process == null ? -1 : process.pid();
  }

  /** Its JVM and every process it started; null until it started. */
  JobTree tree() {
    return tree;
  }

  State state() {
    return state;
  }

  /** Whether it said ready on a control link (so from then on, closed or not, no other link is its). */
  boolean linked() {
    return control != null;
  }

  /** What the worker writes on its control link, bounded; null until it said ready. */
  WriteBound controlOut() {
    return controlOut;
  }

  /** Completes when its control link closes. */
  Future<Void> whenLinkClosed() {
    return controlClosed.future();
  }

  /** What it said when it became ready, last; null while it is not ready. */
  JobControl.Ready lastReady() {
    return lastReady;
  }

  /** The job placed on it, or null while it is warm. */
  Job job() {
    return job;
  }

  /** Its job's id, or null while it is warm. */
  String jobId() {
    return job == null ? null : job.jobId();
  }

  boolean warm() {
    return job == null;
  }

  long lastPong() {
    return lastPong;
  }

  long calls() {
    return calls;
  }

  /** Why the worker killed it, or null. */
  String killCause() {
    return killCause;
  }

  /** Why it stopped itself, or null. */
  String stopCause() {
    return stopCause;
  }

  boolean exitedItself() {
    return exitedItself;
  }

  /** Why it ended, once it did; else null. */
  String endCause() {
    return endCause;
  }

  /** When it ended, or null. */
  Long endedAt() {
    return endedAt;
  }

  /** Its next life, once it was taken back; else null. */
  JobProcess successor() {
    return successor;
  }
}
