package org.parl.worker;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.parl.wire.JsonLines;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts and watches a worker's job processes: each connects back over loopback when ready,
 * answers pings, and is killed when it stops answering or goes over its memory limit. When a
 * process ends, its job's end (with the cause) goes to the listener. Used on the worker verticle's
 * context only; the blocking parts (starting a process, reading /proc, files) run on worker threads.
 */
final class JobSupervisor {

  private static final Logger log = LoggerFactory.getLogger(JobSupervisor.class);
  static final long PING_MS = 2_000;
  static final long HUNG_MS = 10_000;
  static final long MEMORY_CHECK_MS = 250;
  static final long READY_TIMEOUT_MS = 90_000;
  private static final int HISTORY = 1_000;

  private final Vertx vertx;
  private final Context context;
  private final WorkerSettings settings;
  private final JobLauncher launcher;
  private final BiConsumer<JobProcess, Boolean> onJobEnded;
  private final Runnable onWarmEnded;
  private final Map<String, JobProcess> live = new LinkedHashMap<>();
  private final Map<String, JobProcess> byJob = new LinkedHashMap<>();
  private int controlPort;
  private long seq;
  private boolean stopping;

  /**
   * @param onJobEnded called with a process that hosted a job and whether it ended abnormally
   * @param onWarmEnded called when a warm process ended without a job
   */
  JobSupervisor(Vertx vertx, Context context, WorkerSettings settings, BiConsumer<JobProcess, Boolean> onJobEnded,
      Runnable onWarmEnded) {
    this.vertx = vertx;
    this.context = context;
    this.settings = settings;
    this.launcher = new JobLauncher(settings.host(), settings.codeCache());
    this.onJobEnded = onJobEnded;
    this.onWarmEnded = onWarmEnded;
  }

  Future<Void> start() {
    vertx.executeBlocking(() -> {
      launcher.prepareArchive();
      return null;
    });
    vertx.setPeriodic(PING_MS, t -> ping());
    vertx.setPeriodic(MEMORY_CHECK_MS, t -> checkMemory());
    return vertx.createNetServer(new NetServerOptions().setHost("127.0.0.1").setPort(0).setTcpNoDelay(true))
        .connectHandler(this::controlConnected)
        .listen()
        .map(server -> {
          controlPort = server.actualPort();
          return null;
        });
  }

  boolean stopping() {
    return stopping;
  }

  /**
   * Starts a process; its {@code ready} future completes when it can take an actor.
   *
   * @param warmUp true for a warm-pool process, which compiles its code paths before it is ready
   */
  JobProcess spawn(List<Integer> gpus, int memoryLimitMb, boolean warmUp) {
    String slot = settings.workerId().substring(2) + "-" + (++seq);
    JobProcess p = new JobProcess(slot, gpus, memoryLimitMb, warmUp,
        settings.workDir().resolve("logs").resolve(slot + ".log"), settings.workDir().resolve("jobs").resolve(slot));
    live.put(slot, p);
    vertx.executeBlocking(() -> launcher.start(p, controlPort)).onComplete(ar -> {
      if (ar.failed()) {
        p.endCause = "could not start a job process: " + ar.cause().getMessage();
        p.state = JobProcess.State.ENDED;
        live.remove(slot);
        p.ready.tryFail(p.endCause);
        return;
      }
      p.process = ar.result();
      p.process.onExit().thenRun(() -> context.runOnContext(v -> exited(p)));
    });
    vertx.setTimer(READY_TIMEOUT_MS, t -> {
      if (p.state == JobProcess.State.STARTING) {
        kill(p, "did not start within " + READY_TIMEOUT_MS / 1000 + " s");
      }
    });
    return p;
  }

  /** Binds a ready (or starting) process to a job. */
  void reserve(JobProcess p, JsonObject job) {
    p.jobId = job.getString("jobId");
    p.clientId = job.getString("clientId");
    p.actorClass = job.getString("actorClass");
    byJob.put(p.jobId, p);
    trimHistory();
  }

  /** Tells a ready process which job it runs (for its log) and marks it assigned. */
  void assign(JobProcess p) {
    p.state = JobProcess.State.ASSIGNED;
    send(p, new JsonObject().put("op", "assign").put("jobId", p.jobId).put("clientId", p.clientId));
    log.info("job {} of client {} runs in process {} (slot {}{})", p.jobId, p.clientId, p.pid(), p.slot,
        p.gpus.isEmpty() ? "" : ", CUDA_VISIBLE_DEVICES=" + p.gpus);
  }

  boolean kill(String jobId, String cause) {
    JobProcess p = byJob.get(jobId);
    if (p == null || p.state == JobProcess.State.ENDED) {
      return false;
    }
    kill(p, cause);
    return true;
  }

  void kill(JobProcess p, String cause) {
    if (p.killCause == null) {
      p.killCause = cause;
    }
    if (p.process != null) {
      p.process.destroyForcibly();
    }
  }

  /** Processes that can take an actor without a JVM start, best first (ready before starting). */
  Optional<JobProcess> warm(List<Integer> gpus) {
    return live.values().stream()
        .filter(p -> p.warm() && p.memoryLimitMb == 0 && p.gpus.equals(gpus) && p.state != JobProcess.State.ENDED)
        .min(Comparator.comparing(p -> p.state == JobProcess.State.IDLE ? 0 : 1));
  }

  Stream<JobProcess> liveProcesses() {
    return live.values().stream();
  }

  Optional<JobProcess> job(String jobId) {
    return Optional.ofNullable(byJob.get(jobId));
  }

  List<JobProcess> jobs() {
    return new ArrayList<>(byJob.values());
  }

  /** Kills every process; used when the worker stops. */
  void killAll() {
    stopping = true;
    for (JobProcess p : List.copyOf(live.values())) {
      kill(p, "its worker stopped");
    }
  }

  private void controlConnected(NetSocket socket) {
    JobProcess[] bound = new JobProcess[1];
    JsonLines.read(socket, msg -> {
      if (bound[0] == null) {
        bound[0] = ready(socket, msg);
        if (bound[0] == null) {
          socket.close();
        }
        return;
      }
      JobProcess p = bound[0];
      switch (msg.getString("op", "")) {
        case "pong" -> {
          p.lastPong = System.currentTimeMillis();
          if (msg.getValue("calls") instanceof Number n) {
            p.calls = n.longValue();
          }
        }
        default -> log.debug("job process {} said {}", p.slot, msg);
      }
    }, bad -> socket.close());
  }

  /** The first message of a control connection must be a ready from a process this worker started. */
  private JobProcess ready(NetSocket socket, JsonObject msg) {
    JobProcess p = live.get(String.valueOf(msg.getValue("slot")));
    if (p == null || p.state != JobProcess.State.STARTING || !"ready".equals(msg.getString("op"))
        || !(msg.getValue("pid") instanceof Number pid) || pid.longValue() != p.pid()
        || !(msg.getValue("port") instanceof Integer port) || !(msg.getValue("token") instanceof String token)) {
      log.warn("refused a control connection that is not one of this worker's job processes: {}", msg);
      return null;
    }
    p.control = socket;
    p.port = port;
    p.token = token;
    p.lastPong = System.currentTimeMillis();
    p.state = JobProcess.State.IDLE;
    p.ready.tryComplete(p);
    return p;
  }

  private void exited(JobProcess p) {
    p.state = JobProcess.State.ENDED;
    p.endedAt = System.currentTimeMillis();
    live.remove(p.slot);
    int code = p.process.exitValue();
    boolean abnormal = p.killCause != null || code != 0;
    p.endCause = cause(p, code);
    p.ready.tryFail("the job process ended before it was ready: " + p.endCause + " (log: " + p.log + ")");
    if (p.control != null) {
      p.control.close();
    }
    vertx.executeBlocking(() -> deleteTree(p.workDir));
    if (p.jobId != null) {
      log.info("job {} ended: {}", p.jobId, p.endCause);
      onJobEnded.accept(p, abnormal);
    } else {
      if (abnormal && !stopping) {
        log.warn("warm job process {} ended: {}", p.slot, p.endCause);
      }
      if (!stopping) {
        onWarmEnded.run();
      }
    }
  }

  private static String cause(JobProcess p, int code) {
    if (p.killCause != null) {
      return p.killCause;
    }
    if (code == 0) {
      return "the job process ended";
    }
    if (code == JobLauncher.OOM_EXIT) {
      return p.memoryLimitMb > 0
          ? "memory limit: its Java heap filled maxMemoryMb=" + p.memoryLimitMb + " (OutOfMemoryError)"
          : "it ran out of Java heap (OutOfMemoryError)";
    }
    if (code > 128) {
      return "the job process was killed by signal " + (code - 128);
    }
    return "the job process exited with status " + code;
  }

  private void send(JobProcess p, JsonObject msg) {
    if (p.control != null) {
      JsonLines.write(p.control, msg);
    }
  }

  private void ping() {
    long now = System.currentTimeMillis();
    for (JobProcess p : List.copyOf(live.values())) {
      if (p.state == JobProcess.State.IDLE || p.state == JobProcess.State.ASSIGNED) {
        if (now - p.lastPong > HUNG_MS) {
          kill(p, "the job process stopped answering for " + HUNG_MS / 1000 + " s");
        } else {
          send(p, new JsonObject().put("op", "ping"));
        }
      }
    }
  }

  /** Resident memory of every limited process, read from /proc off the event loop. */
  private void checkMemory() {
    Map<JobProcess, Long> limited = new HashMap<>();
    for (JobProcess p : live.values()) {
      if (p.memoryLimitMb > 0 && p.process != null && p.state != JobProcess.State.ENDED) {
        limited.put(p, p.pid());
      }
    }
    if (limited.isEmpty()) {
      return;
    }
    vertx.executeBlocking(() -> {
      Map<JobProcess, Long> rss = new HashMap<>();
      limited.forEach((p, pid) -> ProcMemory.residentKb(pid).ifPresent(kb -> rss.put(p, kb)));
      return rss;
    }).onSuccess(rss -> rss.forEach((p, kb) -> {
      if (kb / 1024 > p.memoryLimitMb) {
        kill(p, "memory limit: its resident memory reached " + kb / 1024 + " MiB, over maxMemoryMb=" + p.memoryLimitMb);
      }
    }));
  }

  private void trimHistory() {
    var it = byJob.entrySet().iterator();
    while (byJob.size() > HISTORY && it.hasNext()) {
      if (it.next().getValue().state == JobProcess.State.ENDED) {
        it.remove();
      }
    }
  }

  private static Void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return null;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
    return null;
  }
}
