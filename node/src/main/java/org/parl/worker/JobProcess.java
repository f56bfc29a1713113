package org.parl.worker;

import io.vertx.core.Promise;
import io.vertx.core.net.NetSocket;
import java.nio.file.Path;
import java.util.List;
import org.parl.job.tree.JobTree;
import org.parl.limits.WriteBound;
import org.parl.security.SharedSecret;
import org.parl.wire.JobControl;
import org.parl.wire.gateway.Job;

/**
 * One job process as its worker sees it. A process is started either warm (generic, waiting for
 * an actor) or for a given job; it becomes ready when it connects back, and is assigned a job id
 * when an actor lands on it. A process whose actor was closed cleanly is taken back for the next
 * actor: it then continues as a new {@code JobProcess} (its {@link #successor}), with a slot and
 * log of its own, in the same OS process, working directory and GPUs.
 *
 * <p>Each life has its {@link JobVerticle} ({@link #owner()}), the only code that writes the
 * mutable fields below ({@code JobStateWritersTest} checks it); the rest of the worker reads them,
 * on the worker verticle's context, and tells the verticle what happened.
 */
final class JobProcess {

  /** RECYCLING: a process whose actor was closed, checking that it is clean before it is ready again. */
  enum State { STARTING, IDLE, ASSIGNED, RECYCLING, ENDED }

  final String slot;
  final List<Integer> gpus;
  final int memoryLimitMb;
  /** Whether the process warms its code up before it is ready (warm pool), or is needed at once. */
  final boolean warmUp;
  final Path log;
  final Path workDir;
  final long startedAt = System.currentTimeMillis();
  final Promise<JobProcess> ready = Promise.promise();
  /** Proves on the control port that a connection comes from this process (given to it on its standard input). */
  final SharedSecret secret;
  /** Whether this is a process taken back after an earlier actor (it then writes to its own log when assigned). */
  final boolean reused;
  /** Actors this OS process served before this life: its code for serving one is compiled (JIT) the more, the higher. */
  final int actorsServed;
  /** Whether its data port speaks TLS (the cluster's {@code --encrypt-data}). */
  boolean encryptData;
  Process process;
  /** Its JVM and every process it started ({@link Containment}); null until it started. */
  JobTree tree;
  /**
   * The life of this OS process before this one, while this one checks that it is clean for reuse:
   * that job's end (and so its resources) is reported only once the check passed or the process is gone.
   */
  JobProcess pendingEnd;
  /** Carries the process's output into the log of the job it serves; shared by its successors. */
  JobOutput output;
  State state = State.STARTING;
  NetSocket control;
  /** What the worker writes on {@link #control}, bounded: a process that does not read is disconnected. */
  WriteBound controlOut;
  /**
   * What the job said when it became ready, last: its data port, and the secret it made for its client, who
   * proves it there (never logged); null until it is ready, and in a life taken back until it is ready again.
   */
  JobControl.Ready lastReady;
  /** The job placed on it, with its resources (its GPU memory budget is held by {@code GpuMemoryWatch}); null while warm. */
  Job job;
  long lastPong = System.currentTimeMillis();
  /** Calls the process has served, as of its last pong. */
  long calls;
  /** Why the worker killed it, if it did; read when the exit is reported. */
  String killCause;
  /** Why the job stopped itself, when it said so on its control link (a payload it could not hold, say). */
  String stopCause;
  /** Whether the process said it was exiting (any {@code System.exit}), which a JVM halted for OutOfMemoryError does not. */
  boolean exitedItself;
  /** Completed when its control link closes, after which no last words can come. */
  final Promise<Void> controlClosed = Promise.promise();
  String endCause;
  Long endedAt;
  /** The same OS process serving the next actor, once this one's actor was closed and the process taken back. */
  JobProcess successor;
  /** The one writer of this life's state. */
  private final JobVerticle owner = new JobVerticle(this);

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
    this.log = log;
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
    this.log = log;
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

  /** Starts this process's next life, as {@link #successor}, which reports this life's end ({@link #pendingEnd}). */
  JobProcess takeBack(String nextSlot, Path nextLog) {
    successor = new JobProcess(this, nextSlot, nextLog);
    return successor;
  }

  /** The incarnation of this OS process that is current: this one, or its latest successor. */
  JobProcess latest() {
    JobProcess p = this;
    while (p.successor != null) {
      p = p.successor;
    }
    return p;
  }

  JobVerticle owner() {
    return owner;
  }

  long pid() {
    return process == null ? -1 : process.pid();
  }

  /** Its job's id, or null while it is warm. */
  String jobId() {
    return job == null ? null : job.jobId();
  }

  boolean warm() {
    return job == null;
  }
}
