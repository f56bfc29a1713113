package org.parl.worker;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.net.NetSocket;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.parl.cluster.Addresses;
import org.parl.control.ControlReply.Done;
import org.parl.control.ControlReply.JobLog;
import org.parl.control.ControlReply.JobStatus;
import org.parl.control.Dispatcher;
import org.parl.control.Failures;
import org.parl.control.JobView;
import org.parl.control.WorkerRequest.DownloadLog;
import org.parl.control.WorkerRequest.KillJob;
import org.parl.control.WorkerRequest.ReadLog;
import org.parl.control.WorkerRequest.ReadStatus;
import org.parl.job.tree.JobTree;
import org.parl.limits.WriteBound;
import org.parl.wire.ErrorKind;
import org.parl.wire.JobControl;
import org.parl.wire.gateway.Job;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Job verticle: the one owner of a job process's state on its worker, one per life of a process
 * ({@link JobProcess}; a process taken back for the next actor goes on as a new life, with a
 * verticle of its own). Everything else (the control server, the supervisor, the watches, the
 * worker verticle) says what happened through its methods (started, ready, placed, assigned,
 * released, exited, ended, kill...), and only these change the process's fields. Once a job is
 * placed on it, it answers for that job on {@code parl.job.<jobId>} ({@link Addresses#job}):
 * {@link ReadStatus}, {@link ReadLog}, {@link DownloadLog} and {@link KillJob}, typed and checked
 * like every control request, and only about its own job. It is deployed when its life starts and
 * undeployed when that life is over ({@link #gone()}), which takes its address away.
 *
 * <p>Its state lives on its worker's context (the {@code home} it was deployed from), not on the
 * verticle's own: the job table, the heartbeats and the memory watches read it there, and one
 * thread for all of it needs no locks. So its consumer is registered from that context, and its
 * undeployment unregisters it there. Every method is called on that context.
 */
final class JobVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(JobVerticle.class);
  private static final long UNREGISTER_MS = 5_000;

  private final JobProcess p;
  /** The worker's context, where this process's state is read and changed; null until deployed. */
  private Context home;
  /** Its deployment id, once deployed. */
  private Future<String> deployment;
  /** Its consumer on {@code parl.job.<jobId>}, while a job is placed on it. */
  private MessageConsumer<Object> consumer;

  /** Made with its {@link JobProcess}, whose owner it is. */
  JobVerticle(JobProcess p) {
    this.p = p;
  }

  JobProcess process() {
    return p;
  }

  /** Deploys it from its worker's context, which stays the context of its state. */
  Future<String> deployFrom(Context home) {
    this.home = home;
    deployment = home.owner().deployVerticle(this);
    deployment.onFailure(e -> log.warn("the verticle of job process {} was not deployed: {}", p.slot, e.getMessage()));
    return deployment;
  }

  @Override
  public Future<?> start() {
    log.debug("job process {} has its verticle", p.slot);
    return Future.succeededFuture();
  }

  /**
   * Takes its job's address away, on the worker's context. The cluster is given {@value #UNREGISTER_MS} ms
   * to forget it: a worker cut off from the cluster still undeploys at once.
   */
  @Override
  public Future<?> stop() {
    Promise<Void> done = Promise.promise();
    home.runOnContext(v -> unregister().onComplete(done));
    return done.future().timeout(UNREGISTER_MS, TimeUnit.MILLISECONDS).otherwise(e -> {
      log.warn("the address of job process {} was not unregistered: {}", p.slot, e.getMessage());
      return null;
    });
  }

  /** Its life is over: its verticle is undeployed (and its address gone); its state stays readable in the job history. */
  Future<Void> gone() {
    if (deployment == null) {
      return unregister();
    }
    return deployment.compose(id -> vertx.deploymentIDs().contains(id) ? vertx.undeploy(id) : unregister())
        .recover(e -> unregister());
  }

  private Future<Void> unregister() {
    MessageConsumer<Object> c = consumer;
    consumer = null;
    return c == null ? Future.succeededFuture() : c.unregister();
  }

  // what happened to the process, in the order it usually happens

  /** Its JVM started, its output goes to its log, and its tree is tracked; one killed meanwhile is killed now. */
  void started(Process process, JobOutput output, JobTree tree) {
    p.process = process;
    p.output = output;
    p.tree = tree;
    if (p.killCause != null) {
      kill(p.killCause);
    }
  }

  /** Its JVM could not be started: this life is over before it began. */
  void failedToStart(String why) {
    p.endCause = "could not start a job process: " + why;
    p.state = JobProcess.State.ENDED;
    p.ready.tryFail(p.endCause);
  }

  /**
   * It proved itself on the control link and said ready with its data port and its client's secret.
   *
   * @param out what the worker writes on {@code control}, bounded
   */
  void ready(NetSocket control, WriteBound out, JobControl.Ready ready) {
    p.control = control;
    p.controlOut = out;
    p.lastReady = ready;
    p.lastPong = System.currentTimeMillis();
    p.state = JobProcess.State.IDLE;
    p.ready.tryComplete(p);
  }

  /** Its keep-alive; a recycling process still counts its previous actor's calls until it is ready again. */
  void ponged(long calls) {
    p.lastPong = System.currentTimeMillis();
    if (p.state != JobProcess.State.RECYCLING) {
      p.calls = calls;
    }
  }

  /** It said it exits by itself. */
  void exiting() {
    p.exitedItself = true;
  }

  /** It said it stops itself, and why (a cause its client reads). */
  void stopping(String cause) {
    p.exitedItself = true;
    if (cause != null && !cause.isBlank()) {
      p.stopCause = cause.length() > ControlServer.MAX_CAUSE ? cause.substring(0, ControlServer.MAX_CAUSE) + "..." : cause;
    }
  }

  /** Its control link closed: no last words can come any more. */
  void linkClosed() {
    p.controlClosed.tryComplete();
  }

  /** The master placed a job on it: from now on it answers for that job on the job's address. */
  void placed(Job job) {
    p.job = job;
    if (home != null && consumer == null) {
      Dispatcher requests = new Dispatcher("the verticle of job " + job.jobId(), log)
          .on(ReadStatus.class, r -> ifMine(r.jobId(), () -> Future.succeededFuture(new JobStatus(view()))))
          .on(ReadLog.class, r -> ifMine(r.jobId(), () -> readLog(r.lines())))
          .on(DownloadLog.class, r -> ifMine(r.jobId(), this::download))
          .on(KillJob.class, r -> ifMine(r.jobId(), () -> kill(r)));
      consumer = vertx().eventBus().consumer(Addresses.job(job.jobId()), requests::handle);
    }
  }

  /** It is told which job it runs (for its log) and serves that job's actor. */
  void assigned() {
    if (p.state == JobProcess.State.ENDED) {
      return; // it ended between its launch's answer and this
    }
    p.state = JobProcess.State.ASSIGNED;
    if (p.reused && p.output != null) {
      p.output.target(p.log); // all its output, native too, to its own log; its first actor's stays readable by that job's id
    }
    ControlServer.send(p, new JobControl.Assign(p.jobId(), p.job.clientId()));
    log.info("job {} of client {} runs in process {} (slot {}{})", p.jobId(), p.job.clientId(), p.pid(), p.slot,
        p.gpus.isEmpty() ? "" : ", CUDA_VISIBLE_DEVICES=" + p.gpus);
  }

  /** Its actor was closed, after serving {@code calls} calls. */
  void released(long calls) {
    p.calls = calls;
  }

  /**
   * The process is taken back for the next actor: this life (and its job) ends here, and the
   * process goes on as a new life, recycling, with a slot, log and verticle of its own.
   */
  JobProcess takenBack(String nextSlot, Path nextLog) {
    JobProcess next = p.takeBack(nextSlot, nextLog);
    p.state = JobProcess.State.ENDED;
    p.endedAt = System.currentTimeMillis();
    p.endCause = "the actor was closed";
    if (home != null) {
      next.owner().deployFrom(home);
    }
    gone();
    return next;
  }

  /** A taken-back process proved clean and is ready for the next actor, with a fresh data port and credential. */
  void readyAgain(JobControl.Ready ready) {
    p.lastReady = ready;
    p.lastPong = System.currentTimeMillis();
    p.state = JobProcess.State.IDLE;
    p.ready.tryComplete(p);
  }

  /** The life before this one, whose end waited for this one's check (or its exit), once; null after. */
  JobProcess takePendingEnd() {
    JobProcess previous = p.pendingEnd;
    p.pendingEnd = null;
    return previous;
  }

  /** Its JVM ended; its end is reported once its tree is gone and its last words are read ({@link #ended}). */
  void exited() {
    p.state = JobProcess.State.ENDED;
    p.endedAt = System.currentTimeMillis();
  }

  /**
   * Its end is decided: the cause is the first kill's, else what it said, else its exit status.
   *
   * @return whether it ended abnormally (killed, or a non-zero status)
   */
  boolean ended(int code) {
    boolean abnormal = p.killCause != null || code != 0;
    p.endCause = ExitCause.of(p, code);
    p.ready.tryFail("the job process ended before it was ready: " + p.endCause + " (log: " + p.log + ")");
    if (p.control != null) {
      p.control.close();
    }
    return abnormal;
  }

  /**
   * Kills the process and every process it started; its end is reported with {@code cause} (the
   * first cause given, if several) once they are all gone. A life whose process already serves the
   * next actor is over, and is not killed.
   */
  void kill(String cause) {
    if (p.successor != null) {
      return;
    }
    if (p.killCause == null) {
      p.killCause = cause;
    }
    if (p.process != null) {
      p.process.destroyForcibly();
    }
    JobTree tree = p.tree;
    if (tree != null) {
      vertx().executeBlocking(() -> {
        tree.kill();
        return null;
      });
    }
  }

  // what the JobCenter and the monitors ask of its job

  /** The process as the monitor is told about it; only once a job is placed on it. */
  JobView view() {
    return new JobView(p.job, p.slot, p.pid(), p.state.name().toLowerCase(), p.memoryLimitMb, p.startedAt, p.endedAt, p.calls,
        p.endCause);
  }

  /** The last {@code lines} lines of its log, read off the event loop. */
  Future<JobLog> readLog(int lines) {
    return vertx().executeBlocking(() -> LogTail.read(p.log, lines)).map(text -> new JobLog(view(), text));
  }

  /** Its whole log (its last {@value LogTail#MAX_DOWNLOAD_BYTES} bytes if longer). */
  Future<JobLog> download() {
    return vertx().executeBlocking(() -> LogTail.readAll(p.log, LogTail.MAX_DOWNLOAD_BYTES)).map(text -> new JobLog(view(), text));
  }

  private Future<Done> kill(KillJob r) {
    if (p.state == JobProcess.State.ENDED) {
      return Failures.future(ErrorKind.NOT_FOUND, "no job " + p.jobId() + " runs on worker " + p.job.workerId() + " any more");
    }
    kill(r.cause());
    return Future.succeededFuture(new Done());
  }

  /** A request about another job than its own is refused, saying so. */
  private <R> Future<R> ifMine(String jobId, Supplier<Future<R>> answer) {
    if (!jobId.equals(p.jobId())) {
      return Failures.future(ErrorKind.INVALID, "the verticle of job " + p.jobId() + " answers about that job only, not " + jobId);
    }
    return answer.get();
  }

  private Vertx vertx() {
    return home.owner();
  }
}
