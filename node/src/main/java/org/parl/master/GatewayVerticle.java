package org.parl.master;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.parl.cluster.Addresses;
import org.parl.cluster.ClusterInfo;
import org.parl.cluster.ClusterNode;
import org.parl.cluster.MapPublisher;
import org.parl.control.ControlReply.Done;
import org.parl.control.ControlReply.Held;
import org.parl.control.Dispatcher;
import org.parl.control.Failures;
import org.parl.control.GatewayQuery.ListHeld;
import org.parl.control.JobCenterRequest.Allocate;
import org.parl.control.JobCenterRequest.CancelClient;
import org.parl.control.JobCenterRequest.ClaimJobs;
import org.parl.control.JobCenterRequest.Drain;
import org.parl.control.JobCenterRequest.DropGroup;
import org.parl.control.JobCenterRequest.GetSnapshot;
import org.parl.control.JobCenterRequest.GetWaiting;
import org.parl.control.JobCenterRequest.HoldGroup;
import org.parl.control.LocalEvent.JobEnded;
import org.parl.control.LocalEvent.MastersChanged;
import org.parl.control.LocalEvent.WorkerLost;
import org.parl.ha.JobCenterCalls;
import org.parl.ha.Masters;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.wire.BadMessageException;
import org.parl.internal.wire.ClassPaths;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.gateway.GatewayAuth;
import org.parl.internal.wire.gateway.GatewayCodec;
import org.parl.internal.wire.gateway.GatewayReply;
import org.parl.internal.wire.gateway.GatewayRequest;
import org.parl.internal.wire.gateway.GatewayRequest.Authenticate;
import org.parl.internal.wire.gateway.GatewayRequest.ClientHello;
import org.parl.internal.wire.gateway.GatewayRequest.Create;
import org.parl.internal.wire.gateway.GatewayRequest.Kill;
import org.parl.internal.wire.gateway.GatewayRequest.MasterHello;
import org.parl.internal.wire.gateway.GatewayRequest.MonitorHello;
import org.parl.internal.wire.gateway.GatewayRequest.Ping;
import org.parl.internal.wire.gateway.GatewayRequest.StatusHello;
import org.parl.internal.wire.gateway.GatewayRequest.WorkerHello;
import org.parl.internal.wire.gateway.Job;
import org.parl.internal.wire.gateway.RuntimeJar;
import org.parl.limits.LimitSettings;
import org.parl.tls.NodeCertificate;
import org.parl.tls.TlsPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's client gateway on {@code --port}, speaking the typed JSON-lines protocol of
 * {@code org.parl.internal.wire.gateway} inside TLS with the cluster's certificate. A connection is served
 * only once it has proved that it holds the cluster token ({@link GatewayDoor}). Joining workers
 * and monitors learn the cluster's Hazelcast address here, {@code parl status} asks for a summary,
 * and clients (which are not cluster members) create actors. A create is placed by the
 * {@link Placer}; the answer carries the job's endpoint, which the client then calls directly.
 */
public final class GatewayVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(GatewayVerticle.class);
  /**
   * Clients ping every 2 s; one silent for this long (a client whose host was cut off) is considered
   * gone, and its jobs are stopped. Five missed pings: a client stalled by a long pause keeps its jobs.
   */
  static final int IDLE_TIMEOUT_S = 10;
  /** How long the end of a job whose placement is still under way is remembered. */
  private static final long ENDED_MEMORY_MS = Placer.LAUNCH_TIMEOUT_MS + 30_000;
  private static final int ENDED_MEMORY_MAX = 10_000;
  private static final long SNAPSHOT_TIMEOUT_MS = 10_000;
  /** Beyond a group's own resource wait, how long the JobCenter may take to answer. */
  private static final long GROUP_SLACK_MS = 30_000;
  /** How long a resuming client may wait for a new active master to finish rebuilding the pool. */
  private static final long RESUME_TIMEOUT_MS = 20_000;
  private static final long USE_MS = 2_000;

  private final Supplier<ClusterInfo> info;
  private final ClusterNode node;
  private final Supplier<Masters> masters;
  private final String host;
  private final int port;
  private final ClusterToken token;
  private final NodeCertificate served;
  private final ConnectionCaps caps;
  private final Map<String, GatewaySession> clients = new HashMap<>();
  private final Map<Class<?>, BiConsumer<GatewaySession, GatewayRequest>> handlers = new HashMap<>();
  private GatewayDoor door;
  /** Jobs that ended before their client's session knew them (still being placed): job id to the event. */
  private final Map<String, JobEnded> endedUnplaced = new LinkedHashMap<>(16, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, JobEnded> eldest) {
      return size() > ENDED_MEMORY_MAX;
    }
  };
  private Placer placer;
  private MapPublisher clientsMap;
  private ResumeTickets tickets;
  private List<RuntimeJar> runtimeJars = List.of();

  private volatile int actualPort;
  /** Set when this master stops: its clients resume at another master, so their jobs are kept. */
  private volatile boolean handingOver;

  /**
   * @param info how to reach the cluster, known once every server of the master is bound (asked
   *     for when a node says hello)
   * @param node this master's cluster node
   * @param masters this node's view of the cluster's masters (docs/contract.md §10)
   * @param port the gateway's port; 0 binds a free one (see {@link #port()})
   * @param token the cluster's token, which every peer must prove that it holds
   * @param served the certificate the gateway presents, issued by the cluster's CA; the token proofs are bound to it
   * @param limits the connection caps (docs/contract.md §8)
   */
  public GatewayVerticle(Supplier<ClusterInfo> info, ClusterNode node, Supplier<Masters> masters, String host, int port,
      ClusterToken token, NodeCertificate served, LimitSettings limits) {
    this.caps = new ConnectionCaps(limits);
    this.info = info;
    this.node = node;
    this.masters = masters;
    this.host = host;
    this.port = port;
    this.token = token;
    this.served = served;
  }

  @Override
  public Future<?> start() {
    door = new GatewayDoor(vertx, token, served.fingerprint());
    placer = new Placer(vertx, node.nodeId(), masters);
    clientsMap = new MapPublisher(vertx, Addresses.CLIENTS_MAP, node.records());
    tickets = new ResumeTickets(vertx);
    on(ClientHello.class, this::clientHello);
    on(WorkerHello.class, (s, r) -> s.send(new GatewayReply.Joining(r.id(), info.get().description())));
    on(MonitorHello.class, (s, r) -> s.send(new GatewayReply.Joining(r.id(), info.get().description())));
    on(MasterHello.class, (s, r) -> s.send(new GatewayReply.Joining(r.id(), info.get().description())));
    on(StatusHello.class, this::status);
    on(GatewayRequest.DrainHello.class, this::drain);
    on(Create.class, this::create);
    on(Kill.class, this::kill);
    on(GatewayRequest.ReserveGroup.class, this::reserveGroup);
    on(GatewayRequest.RemoveGroup.class, this::removeGroup);
    on(Ping.class, (s, r) -> s.send(new GatewayReply.Done(r.id())));
    on(GatewayRequest.ListWaiting.class, this::listWaiting);
    on(Authenticate.class, (s, r) -> s.fail(r.id(), ErrorKind.INVALID, "this connection has already authenticated"));
    MapPublisher use = new MapPublisher(vertx, Addresses.CLUSTER_MAP, node.records()); // the connections against their caps, for /metrics
    String useKey = Addresses.gatewayKey(node.memberId());
    vertx.setPeriodic(0, USE_MS, t -> use.put(useKey, () -> caps.use().toJson().encode()));
    vertx.eventBus().consumer(Addresses.JOB_EVENTS, m -> {
      if (m.body() instanceof JobEnded e) {
        jobEnded(e);
      }
    });
    vertx.eventBus().consumer(Addresses.WORKER_LOST, m -> {
      if (m.body() instanceof WorkerLost e) {
        placer.workerLost(e);
      }
    });
    vertx.eventBus().localConsumer(Addresses.MASTERS_CHANGED, m -> {
      if (m.body() instanceof MastersChanged e && e.active() != null) {
        placer.activeChanged(e.active());
      }
    });
    node.onMemberRemoved(left -> context.runOnContext(v -> forgetClientsOf(left.memberId())));
    Dispatcher queries = new Dispatcher("the gateway", log).on(ListHeld.class, r -> Future.succeededFuture(held()));
    Future<?> asked = vertx.eventBus().consumer(Addresses.gateway(node.memberId()), queries::handle).completion();
    Future<?> hashed = vertx.executeBlocking(GatewayVerticle::runtimeJars).onSuccess(h -> runtimeJars = h);
    Future<?> listening = vertx.createNetServer(new NetServerOptions()
            .setHost(host).setPort(port).setReadIdleTimeout(IDLE_TIMEOUT_S).setTcpNoDelay(true)
            .setSsl(true).setKeyCertOptions(served.keyCertOptions()).setEnabledSecureTransportProtocols(TlsPolicy.PARL_PROTOCOLS)
            .setSslHandshakeTimeout(GatewayAuth.DEADLINE_MS).setSslHandshakeTimeoutUnit(TimeUnit.MILLISECONDS))
        .connectHandler(this::accept)
        .exceptionHandler(e -> log.warn("gateway refused a connection at the TLS handshake: {}", tlsFailure(e)))
        .listen()
        .onSuccess(server -> actualPort = server.actualPort());
    return Future.all(hashed, listening, asked);
  }

  /** A TLS failure in a few words: Netty's messages may quote a whole record of what the peer sent. */
  private static String tlsFailure(Throwable e) {
    String why = e.getClass().getSimpleName() + ": " + e.getMessage();
    return why.length() > 120 ? why.substring(0, 120) + "..." : why;
  }

  private <R extends GatewayRequest> void on(Class<R> type, BiConsumer<GatewaySession, R> handler) {
    handlers.put(type, (session, request) -> handler.accept(session, type.cast(request)));
  }

  /** The gateway's port once started. */
  public int port() {
    return actualPort;
  }

  /** The jars every job process has, so that clients do not ship them again. */
  private static List<RuntimeJar> runtimeJars() throws IOException {
    List<RuntimeJar> jars = new ArrayList<>();
    for (Path p : ClassPaths.current()) {
      if (!Files.isDirectory(p)) {
        jars.add(new RuntimeJar(p.getFileName().toString(), Files.size(p), ClassPaths.hash(p)));
      }
    }
    return List.copyOf(jars);
  }

  private void accept(NetSocket socket) {
    GatewaySession session = new GatewaySession(vertx, socket, node.memberId());
    String address = socket.remoteAddress().hostAddress();
    Optional<String> refused = caps.admit(address);
    if (refused.isPresent()) {
      log.warn("gateway refused a connection from {}: {}", address, refused.get());
      session.refuse(null, ErrorKind.RESOURCE, refused.get() + "; the connection is closed");
      return;
    }
    session.onAuthenticated(caps::authenticated);
    socket.closeHandler(v -> {
      caps.closed(address, session.authenticated());
      closed(session);
    });
    door.admit(session, line -> received(session, line));
  }

  private void received(GatewaySession session, Buffer line) {
    GatewayRequest request;
    try {
      request = GatewayCodec.request(line);
    } catch (BadMessageException e) {
      session.fail(GatewayCodec.idOf(line), ErrorKind.INVALID, e.getMessage());
      return;
    }
    // a ping is answered on any authenticated connection: a resuming client's hello may wait many
    // seconds for a new active JobCenter, and its pings keep the connection alive meanwhile
    if (!(request instanceof GatewayRequest.Hello) && !(request instanceof Ping) && !session.isClient()) {
      session.fail(request.id(), ErrorKind.INVALID, "say hello first: {\"type\":\"ClientHello\",\"id\":1,...}");
      return;
    }
    BiConsumer<GatewaySession, GatewayRequest> handler = handlers.get(request.getClass());
    if (handler == null) { // a request type added to the protocol but not here
      session.fail(request.id(), ErrorKind.INVALID, "the gateway does not handle " + request.getClass().getSimpleName());
      return;
    }
    handler.accept(session, request);
  }

  private void clientHello(GatewaySession session, ClientHello hello) {
    if (session.isClient()) {
      session.fail(hello.id(), ErrorKind.INVALID, "this connection already said hello");
      return;
    }
    if (hello.resumeClientId() != null) {
      resume(session, hello);
      return;
    }
    String clientId = "c-" + UUID.randomUUID().toString().substring(0, 8);
    // the ticket is recorded before the client has it: a takeover right after finds it in the map
    tickets.issue(clientId).onComplete(ar -> {
      if (ar.failed()) {
        session.fail(hello.id(), ErrorKind.INTERNAL, "could not record the new session: " + ar.cause().getMessage());
        return;
      }
      if (session.closed()) {
        tickets.forget(clientId);
        return;
      }
      welcome(session, hello, clientId, ar.result());
      log.info("client {} connected: {} on {}", session.clientId(), hello.program(), hello.hostname());
    });
  }

  /** @param ticket a new session's resume ticket, or null for a resumed one (its client keeps its own) */
  private void welcome(GatewaySession session, ClientHello hello, String clientId, String ticket) {
    session.becomeClient(clientId, hello);
    clients.put(clientId, session);
    clientsMap.put(clientId, session::record);
    session.send(new GatewayReply.Welcome(hello.id(), info.get().description(), clientId, runtimeJars, ticket));
  }

  /**
   * A client whose master left carries on here (docs/contract.md §10): it keeps its id and the jobs the JobCenter
   * still knows as its own; it is told at once of those the cluster lost meanwhile. Only with the
   * session's resume ticket ({@link ResumeTickets}): another holder of the cluster token cannot take
   * over a client's session, and its jobs, by naming its id.
   */
  private void resume(GatewaySession session, ClientHello hello) {
    String clientId = hello.resumeClientId();
    if (clients.containsKey(clientId)) {
      session.fail(hello.id(), ErrorKind.INVALID, "client " + clientId + " is connected already");
      return;
    }
    tickets.check(clientId, hello.resumeTicket()).onComplete(checked -> {
      if (checked.failed()) {
        session.fail(hello.id(), ErrorKind.UNAUTHENTICATED, checked.cause().getMessage());
      } else {
        claim(session, hello, clientId);
      }
    });
  }

  private void claim(GatewaySession session, ClientHello hello, String clientId) {
    ClaimJobs claim = new ClaimJobs(clientId, hello.resumeJobs());
    JobCenterCalls.request(vertx, masters, claim, RESUME_TIMEOUT_MS, Placer.ATTEMPT_MS).onComplete(ar -> {
      if (ar.failed()) {
        session.fail(hello.id(), Failures.kindOf(ar.cause()), ar.cause().getMessage());
        return;
      }
      if (session.closed() || clients.containsKey(clientId)) {
        session.fail(hello.id(), ErrorKind.INVALID, "client " + clientId + " is connected already");
        return;
      }
      Map<String, String> held = new LinkedHashMap<>();
      ar.result().held().forEach(job -> held.put(job.jobId(), job.workerId()));
      held.forEach(session::addJob);
      welcome(session, hello, clientId, null);
      log.info("client {} resumed here with {} of its {} job(s): {} on {}", clientId, held.size(), hello.resumeJobs().size(),
          hello.program(), hello.hostname());
      for (String jobId : hello.resumeJobs()) {
        if (!held.containsKey(jobId)) {
          session.send(new GatewayReply.JobEnded(jobId, "unknown", "the cluster lost it while its master changed", true));
        }
      }
    });
  }

  /** The jobs this gateway's clients hold, and those being placed for them (asked by the JobCenter). */
  private Held held() {
    Set<String> jobs = new HashSet<>(placer.launching());
    clients.values().forEach(c -> jobs.addAll(c.jobs().keySet()));
    return new Held(List.copyOf(jobs));
  }

  /**
   * The active master's gateway forgets the clients that a master which left had connected: those
   * that live on resume elsewhere and publish themselves again.
   */
  private void forgetClientsOf(String memberId) {
    if (!masters.get().isActive(node.memberId())) {
      return;
    }
    vertx.sharedData().<String, String>getClusterWideMap(Addresses.CLIENTS_MAP)
        .compose(map -> map.entries().compose(entries -> {
          List<Future<?>> removed = new ArrayList<>();
          entries.forEach((id, json) -> {
            String record = node.records().verify(Addresses.CLIENTS_MAP, id, json).orElse(null);
            if (record != null && memberId.equals(GatewaySession.gatewayOf(record))) {
              removed.add(map.removeIfPresent(id, json));
              tickets.forgetUnlessResumed(id);
            }
          });
          return Future.all(removed);
        }))
        .onFailure(e -> log.warn("could not forget the clients of master {}: {}", memberId, e.getMessage()));
  }

  private void status(GatewaySession session, StatusHello r) {
    var snapshot = JobCenterCalls.request(vertx, masters, new GetSnapshot(), SNAPSHOT_TIMEOUT_MS, Placer.ATTEMPT_MS);
    var waiting = JobCenterCalls.request(vertx, masters, new GetWaiting(), SNAPSHOT_TIMEOUT_MS, Placer.ATTEMPT_MS);
    Future.all(snapshot, waiting)
        .onSuccess(all -> {
          var s = snapshot.result();
          session.send(new GatewayReply.Status(r.id(), info.get().description(), s.workers(), s.jobs().size(),
              s.waiting(), clients.size(), masters.get().states(), waiting.result().waiting()));
        })
        .onFailure(e -> session.fail(r.id(), Failures.kindOf(e), e.getMessage()));
  }

  private void drain(GatewaySession session, GatewayRequest.DrainHello r) {
    JobCenterCalls.request(vertx, masters, new Drain(r.workerId(), r.gpu(), r.drained()), SNAPSHOT_TIMEOUT_MS, Placer.ATTEMPT_MS)
        .onSuccess(done -> session.send(new GatewayReply.Done(r.id())))
        .onFailure(e -> session.fail(r.id(), Failures.kindOf(e), e.getMessage()));
  }

  private void listWaiting(GatewaySession session, GatewayRequest.ListWaiting r) {
    JobCenterCalls.request(vertx, masters, new GetWaiting(), SNAPSHOT_TIMEOUT_MS, Placer.ATTEMPT_MS)
        .onSuccess(w -> session.send(new GatewayReply.Waiting(r.id(), w.waiting())))
        .onFailure(e -> session.fail(r.id(), Failures.kindOf(e), e.getMessage()));
  }

  private void create(GatewaySession session, Create r) {
    placer.place(new Allocate(session.clientId(), node.memberId(), session.program(), r))
        .onSuccess(placement -> {
          Job job = placement.job();
          if (session.closed()) {
            placer.kill(job.workerId(), job.jobId(), "its client disconnected before the job started");
            return;
          }
          JobEnded ended = endedUnplaced.remove(job.jobId());
          if (ended != null) { // lost (with its worker, say) before the client could be told where it runs
            session.fail(r.id(), ErrorKind.LOST, "the actor's job " + job.jobId() + " on worker " + job.workerId()
                + " ended as it started: " + ended.cause() + ". Try again");
            return;
          }
          session.addJob(job.jobId(), job.workerId());
          clientsMap.put(session.clientId(), session::record);
          session.send(new GatewayReply.Created(r.id(), placement));
        })
        .onFailure(e -> session.fail(r.id(), Failures.kindOf(e), e.getMessage()));
  }

  private void reserveGroup(GatewaySession session, GatewayRequest.ReserveGroup r) {
    HoldGroup hold = new HoldGroup(session.clientId(), node.memberId(), session.program(), r);
    JobCenterCalls.request(vertx, masters, hold, r.timeoutMs() + GROUP_SLACK_MS)
        .onSuccess(g -> {
          if (session.closed()) { // the JobCenter removes a client's groups when it hears that the client left
            dropGroup(session.clientId(), g.groupId());
            return;
          }
          session.send(new GatewayReply.GroupReserved(r.id(), g.groupId(), g.bundles()));
        })
        .onFailure(e -> session.fail(r.id(), Failures.kindOf(e), e.getMessage()));
  }

  private void removeGroup(GatewaySession session, GatewayRequest.RemoveGroup r) {
    dropGroup(session.clientId(), r.groupId())
        .onSuccess(done -> session.send(new GatewayReply.Done(r.id())))
        .onFailure(e -> session.fail(r.id(), Failures.kindOf(e), e.getMessage()));
  }

  private Future<Done> dropGroup(String clientId, String groupId) {
    return JobCenterCalls.request(vertx, masters, new DropGroup(clientId, groupId), SNAPSHOT_TIMEOUT_MS, Placer.ATTEMPT_MS);
  }

  private void kill(GatewaySession session, Kill r) {
    String workerId = session.jobs().get(r.jobId());
    if (workerId == null) {
      session.fail(r.id(), ErrorKind.NOT_FOUND, "this client has no job " + r.jobId());
      return;
    }
    placer.kill(workerId, r.jobId(), "stopped by its client").onComplete(ar -> session.send(new GatewayReply.Done(r.id())));
  }

  /** Tells a job's client that it ended; one whose placement is under way fails its create instead. */
  private void jobEnded(JobEnded e) {
    GatewaySession session = clients.get(e.clientId());
    if (session == null) {
      return;
    }
    if (session.removeJob(e.jobId()) != null) {
      clientsMap.put(session.clientId(), session::record);
      session.send(new GatewayReply.JobEnded(e.jobId(), e.workerId(), e.cause(), e.lost(), e.gpuFault(), e.preempted()));
    } else {
      endedUnplaced.put(e.jobId(), e);
      vertx.setTimer(ENDED_MEMORY_MS, t -> endedUnplaced.remove(e.jobId()));
    }
  }

  /**
   * This master is stopping: the connections it closes are not clients leaving, and their jobs are
   * kept (they resume at another master, or the JobCenter stops what nobody claims).
   */
  public void handOver() {
    handingOver = true;
  }

  private void closed(GatewaySession session) {
    session.markClosed();
    if (!session.isClient() || handingOver) {
      return;
    }
    String clientId = session.clientId();
    clients.remove(clientId);
    clientsMap.remove(clientId);
    tickets.forget(clientId);
    JobCenterCalls.request(vertx, masters, new CancelClient(clientId), SNAPSHOT_TIMEOUT_MS, Placer.ATTEMPT_MS)
        .onFailure(e -> log.warn("could not cancel the waiting requests of client {}: {}", clientId, e.getMessage()));
    Map<String, String> jobs = session.jobs();
    log.info("client {} disconnected; stopping its {} job(s)", clientId, jobs.size());
    jobs.forEach((jobId, workerId) -> placer.kill(workerId, jobId, "its client " + clientId + " disconnected"));
  }
}
