package org.parl.internal.client;

import io.vertx.core.Vertx;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.parl.ActorLostException;
import org.parl.InvalidRequestException;
import org.parl.ParlException;
import org.parl.internal.wire.BadMessageException;
import org.parl.internal.wire.DataMessage;
import org.parl.internal.wire.DataMessageCodec;
import org.parl.internal.wire.Frames;
import org.parl.internal.wire.Signatures;
import org.parl.internal.wire.gateway.GatewayReply;
import org.parl.internal.wire.gateway.JobPlacement;

/**
 * The opening of actors placed by the master: the data connection's hello, the shipping of the code
 * the job lacks, the create, and the race between an opening and the end of its job (the master may
 * say a job ended before its actor exists: that end is kept a minute, closes the opening's socket at
 * once, and is given to the actor once it exists).
 *
 * <p>An opening runs on a set-up thread of the client (blocking sockets); ends arrive on the
 * client's context. The two meet in concurrent maps: the live actors (the client's), the openings
 * under way and the ends that came early.
 */
final class ActorOpening {

  private static final int CONNECT_MS = 10_000;
  private static final int SETUP_MS = 120_000;
  /** How long an end that came before its actor is kept for it. */
  private static final long ENDED_EARLY_KEPT_MS = 60_000;

  private final Vertx vertx;
  private final boolean encryptData;
  private final String clientId;
  private final SharedOffer sharedOffer;
  private final Map<String, RemoteActorImpl<?>> actors;
  private final Supplier<String> lostReason;
  /** Data connections being set up, by job id: a job that ends meanwhile closes its connection. */
  private final Map<String, ActorConnection> opening = new ConcurrentHashMap<>();
  private final Map<String, GatewayReply.JobEnded> endedEarly = new ConcurrentHashMap<>();

  /**
   * @param actors the client's live actors by job id (concurrent), to which an opened actor is added
   * @param lostReason why the client lost its master, or null while it has one
   */
  ActorOpening(Vertx vertx, boolean encryptData, String clientId, SharedOffer sharedOffer, Map<String, RemoteActorImpl<?>> actors,
      Supplier<String> lostReason) {
    this.vertx = vertx;
    this.encryptData = encryptData;
    this.clientId = clientId;
    this.sharedOffer = sharedOffer;
    this.actors = actors;
    this.lostReason = lostReason;
  }

  /**
   * Opens the actor on its job: connects and says hello, ships the code the job lacks, creates the
   * actor, and adds it to the client's actors. Blocks: runs on a set-up thread.
   *
   * @param actorOf makes the actor on its opened connection
   */
  <T> RemoteActorImpl<T> open(ActorBuilderImpl.Spec<T> spec, JobPlacement placement, CodeBundle code, byte[] ctorArgs,
      Function<ActorConnection, RemoteActorImpl<T>> actorOf) throws IOException {
    String jobId = placement.job().jobId();
    List<Blob> blobs = new ArrayList<>(code.code);
    blobs.addAll(code.files);
    String where = placement.host() + ":" + placement.port();
    DataHello.Opened opened;
    try {
      opened = DataHello.open(placement.host(), placement.port(), CONNECT_MS, encryptData, placement.token(), placement.nonce(),
          clientId, blobs.stream().map(Blob::hash).toList(), sharedOffer.make(placement.host(), spec.resources().maxMemoryMb()));
    } catch (IOException e) {
      Optional<ActorLostException> ended = endedBeforeUse(jobId);
      if (ended.isPresent()) {
        throw ended.get();
      }
      throw new ParlException("cannot reach the job process of " + spec.impl().getSimpleName() + " at " + where + ": "
          + e.getMessage(), e);
    }
    ActorConnection conn = opened.connection();
    Set<String> missing = opened.missing();
    opening.put(jobId, conn);
    if (endedEarly.containsKey(jobId)) {
      conn.closeSocket();
    }
    try {
      for (Blob b : blobs) {
        if (missing.remove(b.hash())) {
          conn.exchange(Frames.BLOB, Frames.named(b.hash(), b.content()), SETUP_MS);
        }
      }
      conn.exchange(Frames.CREATE, Frames.named(createHeader(spec, code), ctorArgs), SETUP_MS);
    } catch (IOException | RuntimeException e) {
      conn.closeSocket();
      Optional<ActorLostException> ended = endedBeforeUse(jobId).or(() -> Optional.ofNullable(lostReason.get())
          .map(why -> new ActorLostException("the actor's job " + jobId + " was lost while it was set up: " + why)));
      if (ended.isPresent()) {
        throw ended.get();
      }
      throw e;
    } finally {
      opening.remove(jobId);
    }
    RemoteActorImpl<T> actor = actorOf.apply(conn);
    actors.put(actor.jobId(), actor);
    GatewayReply.JobEnded early = endedEarly.remove(actor.jobId());
    if (early != null) {
      actor.ended(early);
    }
    String lost = lostReason.get();
    if (lost != null) { // lost the master while this actor was set up
      actor.lose(lost);
    }
    actor.armReader();
    return actor;
  }

  /**
   * The master says a job that has no actor yet ended: its opening, if under way, stops now (not
   * after {@value #SETUP_MS} ms), and the end waits for the actor in case it is being added.
   */
  void endedBeforeOpen(GatewayReply.JobEnded ended) {
    String jobId = ended.jobId();
    endedEarly.put(jobId, ended);
    vertx.setTimer(ENDED_EARLY_KEPT_MS, t -> endedEarly.remove(jobId));
    ActorConnection settingUp = opening.get(jobId);
    if (settingUp != null) {
      settingUp.closeSocket();
    }
    RemoteActorImpl<?> justOpened = actors.get(jobId);
    if (justOpened != null && endedEarly.remove(jobId) != null) {
      justOpened.ended(ended);
    }
  }

  /** The jobs whose actors are being opened. */
  Set<String> underWay() {
    return Set.copyOf(opening.keySet());
  }

  /** The client lost its master: every opening under way fails now. */
  void closeAll() {
    opening.values().forEach(ActorConnection::closeSocket);
  }

  /** Why a job whose connection failed during its set-up is gone, if the master said so. */
  private Optional<ActorLostException> endedBeforeUse(String jobId) {
    return Optional.ofNullable(endedEarly.get(jobId)).map(e -> new ActorLostException("the actor's job " + jobId
        + " ended before it could be used: " + e.cause() + ". Create a new actor to go on"));
  }

  /**
   * The JSON header of the actor's CREATE frame ({@link DataMessage.Create}).
   *
   * @throws InvalidRequestException when the actor's code cannot be described within the header's limits
   */
  private static byte[] createHeader(ActorBuilderImpl.Spec<?> spec, CodeBundle code) {
    try {
      return DataMessageCodec.encode(new DataMessage.Create(spec.api().getName(), spec.impl().getName(),
          Signatures.of(spec.ctor()), code.code.stream().map(Blob::hash).toList(),
          code.files.stream().map(f -> new DataMessage.ShippedFile(f.name(), f.hash())).toList()));
    } catch (BadMessageException e) {
      throw new InvalidRequestException("the actor " + spec.impl().getName() + " cannot be created: " + e.getMessage(), e);
    }
  }
}
