package org.parl.bench;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.parl.cluster.Addresses;
import org.parl.control.ControlBus;
import org.parl.control.ControlReply.Done;
import org.parl.control.ControlReply.Launched;
import org.parl.control.ControlReply.Registered;
import org.parl.control.ControlReply.Snapshot;
import org.parl.control.Dispatcher;
import org.parl.control.Failures;
import org.parl.control.JobCenterRequest.EndJob;
import org.parl.control.JobCenterRequest.GetSnapshot;
import org.parl.control.JobCenterRequest.RegisterWorker;
import org.parl.control.WorkerRequest.KillJob;
import org.parl.control.WorkerRequest.Launch;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.gateway.JobPlacement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Workers whose jobs are not processes, for the scale benchmark: each registers with the JobCenter
 * as a real worker does and answers on {@code parl.worker.<id>}, a launch at once with a made-up
 * endpoint, a kill with Done followed by the job's end to the JobCenter (as a real worker reports
 * it once the process exited). All of them run on this verticle's event loop.
 */
final class SimulatedWorkers extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(SimulatedWorkers.class);
  /** The endpoint every simulated job "listens" on; nothing connects to it. */
  private static final int FAKE_PORT = 9;
  private static final long REQUEST_TIMEOUT_MS = 30_000;
  private static final long REGISTER_RETRY_MS = 200;
  private static final long REGISTER_DEADLINE_MS = 30_000;

  private final String nodeId;
  private final String prefix;
  private final int cpusEach;
  private final List<Worker> workers = new ArrayList<>();

  /**
   * @param nodeId this member's Vert.x node id, which the workers register under
   * @param prefix what the worker ids of this process start with
   * @param cpusEach the CPUs each worker lends
   */
  SimulatedWorkers(String nodeId, String prefix, int cpusEach) {
    this.nodeId = nodeId;
    this.prefix = prefix;
    this.cpusEach = cpusEach;
  }

  /** Registers {@code n} more workers (from any thread); completes with how many this process has. */
  Future<Integer> add(int n) {
    Promise<Integer> done = Promise.promise();
    context.runOnContext(v -> {
      List<Future<Registered>> joined = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        Worker w = new Worker(prefix + "-" + (workers.size() + 1));
        workers.add(w);
        joined.add(w.start());
      }
      Future.all(joined).map(all -> workers.size()).onComplete(done);
    });
    return done.future();
  }

  /** The JobCenter's whole state, its invariant checked. */
  Future<Snapshot> snapshot() {
    return ControlBus.request(vertx, Addresses.JOB_CENTER, new GetSnapshot(), REQUEST_TIMEOUT_MS);
  }

  /** One simulated worker: the jobs it holds, its control address. */
  private final class Worker {
    private final String id;
    private final Set<String> jobs = new HashSet<>();
    private long launched;

    Worker(String id) {
      this.id = id;
    }

    Future<Registered> start() {
      Dispatcher requests = new Dispatcher("simulated worker " + id, log)
          .on(Launch.class, this::launch)
          .on(KillJob.class, this::kill);
      RegisterWorker request = new RegisterWorker(id, nodeId, "simulated", "127.0.0.1", cpusEach, List.of(), List.of());
      Promise<Registered> done = Promise.promise();
      vertx.eventBus().consumer(Addresses.worker(id), requests::handle).completion()
          .onSuccess(v -> register(request, System.currentTimeMillis() + REGISTER_DEADLINE_MS, done))
          .onFailure(done::fail);
      return done.future();
    }

    /** As a real worker does: "no handlers" while the fresh member's subscriptions spread is retried. */
    private void register(RegisterWorker request, long deadline, Promise<Registered> done) {
      ControlBus.request(vertx, Addresses.JOB_CENTER, request, REQUEST_TIMEOUT_MS).onComplete(ar -> {
        if (ar.succeeded()) {
          done.complete(ar.result());
        } else if (ar.cause() instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS
            && System.currentTimeMillis() < deadline) {
          vertx.setTimer(REGISTER_RETRY_MS, t -> register(request, deadline, done));
        } else {
          done.fail(ar.cause());
        }
      });
    }

    private Future<Launched> launch(Launch r) {
      jobs.add(r.job().jobId());
      launched++;
      return Future.succeededFuture(new Launched(new JobPlacement(r.job(), "127.0.0.1", FAKE_PORT, "simulated",
          "00".repeat(32), ProcessHandle.current().pid(), id + "-" + launched)));
    }

    private Future<Done> kill(KillJob r) {
      if (!jobs.remove(r.jobId())) {
        return Failures.future(ErrorKind.NOT_FOUND, "no job " + r.jobId() + " runs on simulated worker " + id);
      }
      // after the reply, as a real worker reports the end once the process has exited
      context.runOnContext(v -> ControlBus.request(vertx, Addresses.JOB_CENTER, new EndJob(r.jobId(), id, r.cause(), false),
              REQUEST_TIMEOUT_MS)
          .onFailure(e -> log.warn("could not report the end of job {} to the JobCenter: {}", r.jobId(), e.getMessage())));
      return Future.succeededFuture(new Done());
    }
  }
}
