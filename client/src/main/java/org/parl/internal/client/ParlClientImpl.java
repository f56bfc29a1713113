package org.parl.internal.client;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.parl.ActorBuilder;
import org.parl.Bundle;
import org.parl.ConnectOptions;
import org.parl.InvalidRequestException;
import org.parl.ParlClient;
import org.parl.ParlException;
import org.parl.PendingCreate;
import org.parl.PlacementGroup;
import org.parl.PlacementStrategy;
import org.parl.RemoteActor;
import org.parl.RemoteSerializationException;
import org.parl.internal.net.HostPort;
import org.parl.internal.net.Hostnames;
import org.parl.internal.resources.GroupRequest;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.wire.SharedArea;
import org.parl.internal.wire.ValueCodec;
import org.parl.internal.wire.gateway.GatewayReply;
import org.parl.internal.wire.gateway.GatewayRequest;
import org.parl.internal.wire.gateway.JobPlacement;

/**
 * The client: a control connection to the master's gateway, and one data connection per actor.
 * Control work runs on one Vert.x context; opening an actor (connect, ship code, construct: {@link ActorOpening}) runs
 * on a set-up thread of the client because it uses blocking sockets, and that thread completes the
 * create.
 *
 * <p>No call waits for an actor that is gone (docs/contract.md §7): when the master says a job ended, or the
 * connection to the master is lost (without a master, workers stop their jobs, and a master stops
 * the jobs of a client it lost), the actors concerned fail their pending and later calls at once.
 * A client given several masters (docs/contract.md §10) first resumes its session at another one
 * ({@link GatewayFailover}): its actors go on meanwhile, and creates under way are sent again.
 */
public final class ParlClientImpl implements ParlClient, RemoteActorImpl.Owner {

  /** Extra time a create may take beyond the resource wait: starting a job JVM on a busy host. */
  private static final long LAUNCH_SLACK_MS = 150_000;
  /**
   * How long the actors of a client that lost its master are kept after the loss unless their job
   * ends first. The client sees the loss by its pings, 6-8 s after a cut. By then plus this grace the
   * jobs are gone: a cut-off master's workers stop theirs as soon as their failure detector misses it
   * (at most 6 s), and a master that lost the client stops the client's jobs once its connection has
   * been idle for 10 s. The JobCenter holds a dropped worker's jobs the same way.
   */
  private static final long MASTER_LEASE_GRACE_MS = 6_000;
  /** How long {@link #waiting()} waits for the master's answer. */
  private static final long WAITING_TIMEOUT_MS = 10_000;
  /** Where shared areas for jobs on this host are made: /dev/shm when there is one. */
  private static final Path SHM_PARENT = SharedArea.defaultParent(Path.of(System.getProperty("java.io.tmpdir")));
  private static final String NETTY_JFR = "io.netty.jfr.enabled";

  private final Vertx vertx;
  private final boolean ownsVertx;
  private final Context context;
  private final ConnectOptions options;
  private final GatewayFailover failover;
  /** The connection in use; replaced when the client resumes at another master. Touched on {@link #context}. */
  private GatewayConnection gateway;
  /** Set while the client looks for another master: creates wait for it. */
  private Future<GatewayConnection> resuming;
  private final GatewayReply.Welcome welcome;
  private final ValueCodec codec;
  private final Map<String, RemoteActorImpl<?>> actors = new ConcurrentHashMap<>();
  /** Opens the actors placed for this client, racing with their jobs' ends. */
  private final ActorOpening openings;
  private volatile String lostReason;
  /** The code bundle, built once (again if that failed); read without the lock once built. */
  private volatile Future<CodeBundle> bundle;
  private final SharedOffer sharedOffer;
  /** Opens actors (blocking sockets): one thread per create under way, ended after a minute idle. */
  private final ExecutorService setUp = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
      new SynchronousQueue<>(), r -> {
        Thread t = new Thread(r, "parl-actor-set-up");
        t.setDaemon(true);
        return t;
      });
  private Future<Void> closing;

  private ParlClientImpl(Vertx vertx, boolean ownsVertx, Context context, ConnectOptions options, GatewayFailover failover,
      GatewayFailover.Connected connected, ValueCodec codec) {
    this.codec = codec;
    this.vertx = vertx;
    this.ownsVertx = ownsVertx;
    this.context = context;
    this.options = options;
    this.failover = failover;
    this.welcome = connected.welcome();
    this.sharedOffer = new SharedOffer(options.isSharedMemory(), SHM_PARENT);
    this.openings = new ActorOpening(vertx, welcome.cluster().encryptData(), welcome.clientId(), sharedOffer, actors,
        () -> lostReason);
    attach(connected.gateway());
    if (options.getDistributedFiles().isEmpty()) { // files are read at the first create: the program may write them first
      buildBundle();
    }
  }

  private void attach(GatewayConnection g) {
    gateway = g;
    g.onJobEnded(this::onJobEnded);
    g.onLost(this::onGatewayLost);
  }

  /**
   * Connects to the master named by the options and authenticates with the cluster token. Fails with
   * {@link org.parl.AuthenticationException} when no token is found (the message says where it looked)
   * or the master does not accept it, with {@link ParlException} when no master answers.
   */
  public static Future<ParlClient> connect(Vertx given, ConnectOptions callers) {
    ConnectOptions options = new ConnectOptions(callers); // the caller may change its object afterwards
    List<HostPort> masters = GatewayFailover.parse(options.getAddress());
    long timeoutMs = options.getConnectTimeout().toMillis();
    if (given == null) {
      startUp();
    }
    ConnectStart start = ConnectStart.begin(masters.get(0), GatewayConnection.socketTimeout(timeoutMs), () -> token(options));
    Vertx vertx = given != null ? given
        : Vertx.builder().with(new VertxOptions().setUseDaemonThread(true).setEventLoopPoolSize(2).setWorkerPoolSize(8)
            // the client serves no files: no class-path file resolver and no file cache to set up at start
            .setFileSystemOptions(new FileSystemOptions().setClassPathResolvingEnabled(false).setFileCachingEnabled(false)))
            .build();
    Context ctx = vertx.getOrCreateContext();
    Future<Void> gatewayCodec = Future.fromCompletionStage(start.gatewayCodec, ctx);
    Promise<ParlClient> result = Promise.promise();
    ctx.runOnContext(v -> Future.fromCompletionStage(start.token, ctx)
        .map(t -> GatewayFailover.of(vertx, masters, t, gatewayCodec, timeoutMs, start.socket))
        .compose(failover -> failover.connect(ParlClientImpl::hello)
            .compose(c -> Future.fromCompletionStage(start.valueCodec, ctx)
                .map(codec -> (ParlClient) new ParlClientImpl(vertx, given == null, ctx, options, failover, c, codec))))
        .onComplete(ar -> {
          if (ar.failed() && given == null) {
            vertx.close();
          }
          result.handle(ar);
        }));
    return result.future();
  }

  /**
   * What a fresh program's first connection would otherwise pay for: Netty is told not to announce
   * its buffer allocations to Java Flight Recorder (loading JFR's event support costs ~0.1 s on the
   * event loop, and nothing reads them) unless the program chose otherwise. Netty's global executor,
   * which closing Vert.x wakes, no longer keeps the JVM alive a second after the program's last line
   * ({@link DaemonGlobalExecutor}).
   */
  private static void startUp() {
    if (System.getProperty(NETTY_JFR) == null) {
      System.setProperty(NETTY_JFR, "false");
    }
    DaemonGlobalExecutor.apply();
  }

  /** The cluster token: the options' own, else as docs/contract.md §9 says; {@code AuthenticationException} when there is none. */
  private static ClusterToken token(ConnectOptions options) {
    return options.getToken() != null ? ClusterToken.of(options.getToken(), "ConnectOptions.setToken")
        : ClusterToken.find(options.getTokenFile());
  }

  private static GatewayRequest hello(long id) {
    return hello(id, null, List.of(), null);
  }

  private static GatewayRequest hello(long id, String resumeClientId, List<String> jobs, String ticket) {
    String command = System.getProperty("sun.java.command", "java");
    return new GatewayRequest.ClientHello(id, command.split(" ")[0], Hostnames.local(), ProcessHandle.current().pid(),
        resumeClientId, jobs, ticket);
  }

  @Override
  public <T> ActorBuilder<T> actor(Class<T> api, Class<? extends T> impl) {
    return new ActorBuilderImpl<>(this, api, impl);
  }

  @Override
  public void release(Object proxy) {
    RemoteActorImpl<?> actor = RemoteActorImpl.behind(proxy).filter(a -> a.owner() == this).orElse(null);
    if (actor == null) {
      throw new InvalidRequestException("release() takes a proxy returned by create() of this client, got " + proxy);
    }
    actor.close();
  }

  @Override
  public String id() {
    return welcome.clientId();
  }

  @Override
  public String clusterType() {
    return welcome.cluster().clusterType();
  }

  @Override
  public String monitorUrl() {
    return welcome.cluster().monitorUrl();
  }

  @Override
  public Future<List<PendingCreate>> waiting() {
    if (closing != null) {
      return Future.failedFuture(new InvalidRequestException("this client is closed"));
    }
    return onContext(() -> viaGateway(g -> g.request(GatewayRequest.ListWaiting::new, GatewayReply.Waiting.class,
        WAITING_TIMEOUT_MS)))
        .map(w -> w.waiting().stream().map(c -> new PendingCreate(c.clientId(), c.actorClass(),
            java.time.Duration.ofMillis(c.ageMs()), c.asks(), c.ahead(), c.reason(), c.details())).toList());
  }

  @Override
  public Future<PlacementGroup> createGroupAsync(PlacementStrategy strategy, List<Bundle> bundles) {
    return createGroupAsync(strategy, bundles, 0);
  }

  @Override
  public Future<PlacementGroup> createGroupAsync(PlacementStrategy strategy, List<Bundle> bundles, int priority) {
    if (closing != null) {
      return Future.failedFuture(new InvalidRequestException("this client is closed"));
    }
    GroupRequest group;
    try {
      ActorBuilderImpl.requirePriority(priority);
      group = PlacementGroupImpl.request(strategy, bundles);
    } catch (InvalidRequestException e) {
      return Future.failedFuture(e);
    }
    long waitMs = options.getResourceWaitTimeout().toMillis();
    return onContext(() -> viaGateway(g -> g.request(id -> new GatewayRequest.ReserveGroup(id, group, waitMs, false, priority),
        GatewayReply.GroupReserved.class, waitMs + LAUNCH_SLACK_MS)))
        .map(reserved -> new PlacementGroupImpl(this, reserved.groupId(), strategy, List.copyOf(bundles), group, reserved.bundles()));
  }

  @Override
  public PlacementGroup createGroup(PlacementStrategy strategy, Bundle... bundles) {
    if (io.vertx.core.Context.isOnEventLoopThread()) {
      throw new IllegalStateException("createGroup() blocks and was called on an event loop: use createGroupAsync() there");
    }
    return createGroupAsync(strategy, bundles == null ? null : java.util.Arrays.asList(bundles)).await();
  }

  /** Removes a group of this client at the master; one that is gone already counts as removed. */
  Future<Void> removeGroup(String groupId) {
    return onContext(() -> viaGateway(g -> g.request(id -> new GatewayRequest.RemoveGroup(id, groupId), GatewayReply.Done.class,
        WAITING_TIMEOUT_MS))).mapEmpty();
  }

  /** The group as this client made it; {@link InvalidRequestException} for any other. */
  PlacementGroupImpl ownGroup(PlacementGroup group) {
    if (group instanceof PlacementGroupImpl g && g.owner() == this) {
      return g;
    }
    throw new InvalidRequestException("placement group " + group.id() + " was not created by this client: an actor goes "
        + "only into a group of its own client");
  }

  <T> Future<RemoteActor<T>> create(ActorBuilderImpl.Spec<T> spec) {
    if (closing != null) {
      return Future.failedFuture(new InvalidRequestException("this client is closed"));
    }
    byte[] ctorArgs;
    try {
      ctorArgs = codec.writeAll(spec.ctor().getGenericParameterTypes(), spec.args());
    } catch (IOException | RuntimeException e) {
      return Future.failedFuture(new RemoteSerializationException("the constructor arguments of " + spec.impl().getSimpleName()
          + " cannot be serialised: " + e.getMessage(), e));
    }
    long waitMs = spec.waitForResources() ? options.getResourceWaitTimeout().toMillis() : 0;
    Context caller = Vertx.currentContext();
    Promise<RemoteActor<T>> result = Promise.promise();
    bundle(spec)
        .compose(code -> onContext(() -> viaGateway(g -> g.request(id -> new GatewayRequest.Create(id, spec.resources(),
                waitMs, spec.impl().getName(), spec.waitForWorkers(), spec.priority(), spec.preempt(),
                spec.group() == null ? null : spec.group().id(), spec.group() == null ? null : spec.bundle()),
                GatewayReply.Created.class, waitMs + LAUNCH_SLACK_MS)))
            .onSuccess(created -> {
              try {
                setUp.execute(() -> openAndAnswer(spec, created.placement(), code, ctorArgs, caller, result));
              } catch (RejectedExecutionException closed) {
                answer(caller, () -> result.fail(new InvalidRequestException("this client is closed")));
              }
            }))
        .onFailure(e -> answer(caller, () -> result.fail(e)));
    return result.future();
  }

  /**
   * Opens the actor on a set-up thread and completes its future there, so that a thread waiting
   * for it wakes at once (not after a hop through the event loop), or on the creating thread's
   * Vert.x context when it had one.
   *
   * @param placement the job the master granted, and where it listens
   * @param code the code to send it
   */
  private <T> void openAndAnswer(ActorBuilderImpl.Spec<T> spec, JobPlacement placement, CodeBundle code, byte[] ctorArgs,
      Context caller, Promise<RemoteActor<T>> result) {
    RemoteActor<T> actor;
    try {
      actor = openings.open(spec, placement, code, ctorArgs,
          conn -> new RemoteActorImpl<>(this, spec.api(), spec.impl().getSimpleName(), placement, conn, codec));
    } catch (Exception | Error e) { // whatever happens, the create's future completes
      answer(caller, () -> result.fail(e));
      return;
    }
    answer(caller, () -> result.complete(actor));
    sharedOffer.refill(); // for the next create, on this thread now that this one is answered
  }

  private static void answer(Context caller, Runnable completion) {
    if (caller == null || Vertx.currentContext() == caller) {
      completion.run();
    } else {
      caller.runOnContext(v -> completion.run());
    }
  }

  /**
   * The code bundle, built (again if that failed) off the event loop. Started once connected when
   * there are no distributed files: a program's first create would otherwise wait for the class path
   * to be read and hashed.
   */
  private synchronized Future<CodeBundle> buildBundle() {
    if (bundle == null || bundle.failed()) {
      List<String> patterns = List.copyOf(options.getDistributedFiles());
      bundle = vertx.executeBlocking(() -> CodeBundle.build(welcome.runtime(), patterns), false);
    }
    return bundle;
  }

  private Future<CodeBundle> bundle(ActorBuilderImpl.Spec<?> spec) {
    Future<CodeBundle> built = bundle;
    if (built != null && built.succeeded() && built.result().covers(spec.impl()) && built.result().covers(spec.api())) {
      // on the caller's thread: composing on the completed future would hop to its event loop
      return Future.succeededFuture(built.result());
    }
    return buildBundle()
        .compose(code -> vertx.executeBlocking(() -> code.including(spec.impl()).including(spec.api()), false));
  }

  /** The master says a job ended: its actor is lost (unless closing), or its opening stops now. */
  private void onJobEnded(GatewayReply.JobEnded ended) {
    RemoteActorImpl<?> actor = actors.get(ended.jobId());
    if (actor != null) {
      actor.ended(ended);
    } else {
      openings.endedBeforeOpen(ended);
    }
  }

  /**
   * A request on the master connection; one that fails because the connection was lost is sent again
   * once the client has resumed at another master (the old master's answer, if any, is lost with it).
   */
  private <A> Future<A> viaGateway(Function<GatewayConnection, Future<A>> request) {
    return request.apply(gateway).recover(e -> resuming == null ? Future.failedFuture(e)
        : resuming.transform(ar -> ar.succeeded() ? request.apply(ar.result()) : Future.failedFuture(e)));
  }

  /**
   * The master connection broke: with other masters to turn to, the client resumes its session at one
   * of them (docs/contract.md §10), its actors untouched; otherwise, or if none answers, its actors are lost.
   */
  private void onGatewayLost(String why) {
    if (closing != null || !failover.canResume()) {
      loseAll(why);
      return;
    }
    List<String> jobs = new ArrayList<>(actors.keySet());
    jobs.addAll(openings.underWay());
    resuming = failover.resume(id -> hello(id, id(), jobs, welcome.resumeTicket()))
        .map(c -> {
          attach(c.gateway());
          return c.gateway();
        })
        .onComplete(ar -> resuming = null)
        .onFailure(e -> loseAll(why + "; no other master answered (" + e.getMessage() + ")"));
  }

  /**
   * Without its master connection, a client's actors are lost: the master stops the jobs of a client
   * it lost, and a worker stops its jobs when it loses the master (fencing). Nothing new is created
   * from now on, but the actors are told only when their job is gone: at once when its connection
   * breaks (the job ended), else after {@link #MASTER_LEASE_GRACE_MS}, the lease of their jobs (a
   * connection across a cut stays silent). So a program that hears of the loss cannot run a second
   * copy of an actor while the first still runs. A call waits for none beyond that.
   */
  private void loseAll(String why) {
    lostReason = why;
    openings.closeAll();
    if (closing == null) {
      setUp.execute(sharedOffer::close); // nothing is created from now on: the area made for the next create goes
    }
    List<RemoteActorImpl<?>> held = List.copyOf(actors.values());
    if (closing != null || held.isEmpty()) {
      held.forEach(actor -> actor.lose(why));
      return;
    }
    vertx.setTimer(MASTER_LEASE_GRACE_MS, t -> held.forEach(actor -> actor.lose(why)));
  }

  @Override
  public void forget(RemoteActorImpl<?> actor) {
    actors.remove(actor.jobId());
  }

  @Override
  public Optional<String> lostReason() {
    return Optional.ofNullable(lostReason);
  }

  @Override
  public Vertx vertx() {
    return vertx;
  }

  @Override
  public long callTimeoutMs() {
    return options.getCallTimeout() == null ? 0 : Math.max(1, options.getCallTimeout().toMillis());
  }

  private <T> Future<T> onContext(Supplier<Future<T>> work) {
    if (Vertx.currentContext() == context) {
      return work.get();
    }
    Promise<T> p = Promise.promise();
    context.runOnContext(v -> work.get().onComplete(p));
    return p.future();
  }

  @Override
  public synchronized Future<Void> closeAsync() {
    if (closing == null) {
      List<Future<Void>> closed = new ArrayList<>();
      for (RemoteActorImpl<?> a : List.copyOf(actors.values())) {
        closed.add(a.closeAsync().otherwiseEmpty());
      }
      closing = Future.all(closed)
          .eventually(() -> onContext(gateway::close))
          .eventually(() -> ownsVertx ? vertx.close() : Future.succeededFuture())
          .onComplete(ar -> {
            setUp.shutdown();
            sharedOffer.close();
          })
          .mapEmpty();
    }
    return closing;
  }

  @Override
  public void close() {
    if (Context.isOnEventLoopThread()) {
      throw new IllegalStateException("close() blocks: use closeAsync() on an event loop");
    }
    closeAsync().otherwiseEmpty().await();
  }
}
