package org.parl.worker;

import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetSocket;
import java.nio.file.Path;
import java.util.List;
import org.parl.limits.WriteBound;
import org.parl.security.SharedSecret;

/**
 * One job process as its worker sees it. A process is started either warm (generic, waiting for
 * an actor) or for a given job; it becomes ready when it connects back, and is assigned a job id
 * when an actor lands on it. Touched only on the worker verticle's context.
 */
final class JobProcess {

  enum State { STARTING, IDLE, ASSIGNED, ENDED }

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
  final SharedSecret secret = SharedSecret.random();
  /** Whether its data port speaks TLS (the cluster's {@code --encrypt-data}). */
  boolean encryptData;
  Process process;
  State state = State.STARTING;
  NetSocket control;
  /** What the worker writes on {@link #control}, bounded: a process that does not read is disconnected. */
  WriteBound controlOut;
  int port;
  /** The secret the job made for its client, who proves it on the data port; never logged. */
  String token;
  String jobId;
  String clientId;
  String actorClass;
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

  JobProcess(String slot, List<Integer> gpus, int memoryLimitMb, boolean warmUp, Path log, Path workDir) {
    this.slot = slot;
    this.gpus = List.copyOf(gpus);
    this.memoryLimitMb = memoryLimitMb;
    this.warmUp = warmUp;
    this.log = log;
    this.workDir = workDir;
  }

  long pid() {
    return process == null ? -1 : process.pid();
  }

  boolean warm() {
    return jobId == null;
  }

  JsonObject toJson() {
    return new JsonObject()
        .put("jobId", jobId)
        .put("slot", slot)
        .put("clientId", clientId)
        .put("actorClass", actorClass)
        .put("pid", pid())
        .put("state", state.name().toLowerCase())
        .put("gpus", new JsonArray(gpus))
        .put("memoryLimitMb", memoryLimitMb)
        .put("startedAt", startedAt)
        .put("endedAt", endedAt)
        .put("calls", calls)
        .put("cause", endCause);
  }
}
