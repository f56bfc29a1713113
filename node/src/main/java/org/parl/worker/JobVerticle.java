package org.parl.worker;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
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
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.gateway.Job;
import org.parl.job.tree.JobTree;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Job verticle: a job process's face on the event bus, one per life of a process
 * ({@link JobProcess}, whose own methods are the only ones that change its state; a process taken
 * back for the next actor goes on as a new life, with a verticle of its own). It does for its
 * process what takes Vert.x: killing its tree off the event loop, deploying the next life's verticle,
 * and, once a job is placed on it, answering for that job on {@code parl.job().<jobId>} ({@link Addresses#job}):
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
  /** Its consumer on {@code parl.job().<jobId>}, while a job is placed on it. */
  private MessageConsumer<Object> consumer;

  /** Made with its {@link JobProcess}, whose face it is. */
  JobVerticle(JobProcess p) {
    this.p = p;
  }

  /** Deploys it from its worker's context, which stays the context of its state. */
  Future<String> deployFrom(Context home) {
    this.home = home;
    deployment = home.owner().deployVerticle(this);
    deployment.onFailure(e -> log.warn("the verticle of job process {} was not deployed: {}", p.slot(), e.getMessage()));
    return deployment;
  }

  @Override
  public Future<?> start() {
    log.debug("job process {} has its verticle", p.slot());
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
      log.warn("the address of job process {} was not unregistered: {}", p.slot(), e.getMessage());
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

  // what its process needs of Vert.x

  /** A job was placed on its process: from now on it answers for that job on the job's address. */
  void answerFor(Job job) {
    if (home != null && consumer == null) {
      Dispatcher requests = new Dispatcher("the verticle of job " + job.jobId(), log)
          .on(ReadStatus.class, r -> ifMine(r.jobId(), () -> Future.succeededFuture(new JobStatus(view()))))
          .on(ReadLog.class, r -> ifMine(r.jobId(), () -> readLog(r.lines())))
          .on(DownloadLog.class, r -> ifMine(r.jobId(), this::download))
          .on(KillJob.class, r -> ifMine(r.jobId(), () -> kill(r)));
      consumer = vertx().eventBus().consumer(Addresses.job(job.jobId()), requests::handle);
    }
  }

  /** Kills its process's tree, off the event loop. */
  void kill(JobTree tree) {
    vertx().executeBlocking(() -> {
      tree.kill();
      return null;
    });
  }

  /** Its process was taken back: its next life gets a verticle of its own, and this one goes. */
  void handOver(JobProcess next) {
    if (home != null) {
      next.verticle().deployFrom(home);
    }
    gone();
  }

  // what the JobCenter and the monitors ask of its job

  /** The process as the monitor is told about it; only once a job is placed on it. */
  JobView view() {
    return new JobView(p.job(), p.slot(), p.pid(), p.state().name().toLowerCase(), p.memoryLimitMb(), p.startedAt(), p.endedAt(),
        p.calls(), p.endCause());
  }

  /** The last {@code lines} lines of its log, read off the event loop. */
  Future<JobLog> readLog(int lines) {
    return vertx().executeBlocking(() -> LogTail.read(p.log(), lines)).map(text -> new JobLog(view(), text));
  }

  /** Its whole log (its last {@value LogTail#MAX_DOWNLOAD_BYTES} bytes if longer). */
  Future<JobLog> download() {
    return vertx().executeBlocking(() -> LogTail.readAll(p.log(), LogTail.MAX_DOWNLOAD_BYTES)).map(text -> new JobLog(view(), text));
  }

  private Future<Done> kill(KillJob r) {
    if (p.state() == JobProcess.State.ENDED) {
      return Failures.future(ErrorKind.NOT_FOUND, "no job " + p.jobId() + " runs on worker " + p.job().workerId() + " any more");
    }
    p.kill(r.cause());
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
